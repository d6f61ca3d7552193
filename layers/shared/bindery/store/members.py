"""Organization memberships. A member item carries a copy of the user's profile so that a page of members
(and the `search` filter) is one Query; the copy is refreshed when the profile changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery import keys
from bindery.store import table
from bindery.store.table import Item
from bindery.store.users import User


@dataclass
class Member:
    org_id: str
    user_id: str
    role: str | None
    joined_at: str
    display_name: str
    email: str | None = None
    photo_url: str | None = None
    last_seen_at: str | None = None
    sso: bool = False
    disabled: bool = False
    teams: int = 0
    spaces: int = 0

    @property
    def user(self) -> User:
        return User(id=self.user_id, display_name=self.display_name, email=self.email,
                    photo_url=self.photo_url)

    @classmethod
    def joining(cls, org_id: str, user: User, role: str | None, joined_at: str, *, sso: bool = False) -> Member:
        return cls(org_id=org_id, user_id=user.id, role=role, joined_at=joined_at,
                   display_name=user.display_name, email=user.email, photo_url=user.photo_url, sso=sso)

    def to_item(self) -> Item:
        search = f"{self.display_name} {self.email or ''}".lower()
        item: Item = {
            **keys.member(self.org_id, self.user_id),
            **keys.member_gsi(self.org_id, self.user_id, self.joined_at, self.last_seen_at),
            "type": "member", "orgId": self.org_id, "userId": self.user_id, "role": self.role,
            "joinedAt": self.joined_at, "displayName": self.display_name, "search": search,
            "sso": self.sso, "disabled": self.disabled, "teams": self.teams, "spaces": self.spaces,
        }
        for name, value in (("email", self.email), ("photoURL", self.photo_url),
                            ("lastSeenAt", self.last_seen_at)):
            if value:
                item[name] = value
        return item

    @classmethod
    def from_item(cls, item: Item) -> Member:
        return cls(org_id=item["orgId"], user_id=item["userId"], role=item.get("role"),
                   joined_at=item["joinedAt"], display_name=item["displayName"], email=item.get("email"),
                   photo_url=item.get("photoURL"), last_seen_at=item.get("lastSeenAt"),
                   sso=bool(item.get("sso")), disabled=bool(item.get("disabled")),
                   teams=int(item.get("teams", 0)), spaces=int(item.get("spaces", 0)))


def get_member(org_id: str, user_id: str) -> Member | None:
    item = table.get(keys.member(org_id, user_id))
    return Member.from_item(item) if item else None


def add_member_ops(member: Member) -> list[dict[str, Any]]:
    """A new membership and the organization's counters (members, admins), for one transaction."""
    admins = 1 if member.role == "admin" else 0
    return [
        table.put_op(member.to_item(), "attribute_not_exists(PK)"),
        table.update_op(keys.org(member.org_id), "ADD memberCount :one, adminCount :admins",
                        {":one": 1, ":admins": admins}, "attribute_exists(PK)"),
    ]


def user_org_ids_page(user_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """GSI1: the organizations of a user, ordered by organization id."""
    return table.Query(partition=keys.user_orgs_partition(user_id), index="GSI1", limit=limit,
                       start_key=start_key).run()


def touch_last_seen(member: Member, at: str) -> None:
    """Record activity (the `lastSeenAt` sort uses GSI3, which this also fills)."""
    gsi = keys.member_gsi(member.org_id, member.user_id, member.joined_at, at)
    table.transact([table.update_op(
        keys.member(member.org_id, member.user_id),
        "SET lastSeenAt = :at, GSI3PK = :pk, GSI3SK = :sk",
        {":at": at, ":pk": gsi["GSI3PK"], ":sk": gsi["GSI3SK"]},
        "attribute_exists(PK)",
    )])
