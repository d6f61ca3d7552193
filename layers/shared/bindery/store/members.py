"""Organization memberships. A member item carries a copy of the user's profile so that a page of members
(and the `search` filter) is one Query; the copy is refreshed when the profile changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from boto3.dynamodb.conditions import Attr, ConditionBase

from bindery import keys
from bindery.platform.errors import BadRequest, Conflict
from bindery.store import grants as grant_store
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store.batch_reads import items_by_key
from bindery.store.table import Item
from bindery.store.users import User, org_count_op

LAST_ADMIN = "An organization needs at least one admin: make another member an admin first"


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
    def joining(cls, org_id: str, user: User, role: str | None, joined_at: str, *,
                sso: bool = False) -> Member:
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


def member_key(org_id: str, user_id: str) -> keys.Key:
    """A membership's key, for reads batched with other kinds (`batch_reads.items_by_key`)."""
    return keys.member(org_id, user_id)


def get_member(org_id: str, user_id: str) -> Member | None:
    item = table.get(keys.member(org_id, user_id))
    return Member.from_item(item) if item else None


def new_member_op(member: Member) -> table.Op:
    """A membership that must not exist yet, without the organization's counters (the caller moves them)."""
    return table.put_op(member.to_item(), "attribute_not_exists(PK)", name="new-member")


def add_member_ops(member: Member) -> list[table.Op]:
    """A new membership and the counters (the organization's members and admins, the user's
    organizations), for one transaction."""
    admins = 1 if member.role == "admin" else 0
    return [
        new_member_op(member),
        org_count_op(member.user_id, 1),
        table.update_op(keys.org(member.org_id), "ADD memberCount :one, adminCount :admins",
                        {":one": 1, ":admins": admins}, "attribute_exists(PK)"),
    ]


@dataclass(frozen=True)
class MembershipsPage:
    members: list[Member]  # one per organization, ordered by organization id
    last_key: dict[str, Any] | None


def user_memberships_page(user_id: str, limit: int, start_key: dict[str, Any] | None) -> MembershipsPage:
    """GSI1: one page of the user's memberships, ordered by organization id."""
    page = table.Query(partition=keys.user_orgs_partition(user_id), index="GSI1", limit=limit,
                       start_key=start_key).run()
    return MembershipsPage([Member.from_item(item) for item in page.items], page.last_key)


def touch_last_seen(member: Member, at: str) -> None:
    """Record activity (the `lastSeenAt` sort uses GSI3, which this also fills)."""
    gsi = keys.member_gsi(member.org_id, member.user_id, member.joined_at, at)
    table.transact([table.update_op(
        keys.member(member.org_id, member.user_id),
        "SET lastSeenAt = :at, GSI3PK = :pk, GSI3SK = :sk",
        {":at": at, ":pk": gsi["GSI3PK"], ":sk": gsi["GSI3SK"]},
        "attribute_exists(PK)",
    )])


def get_members(org_id: str, user_ids: list[str]) -> dict[str, Member]:
    found = items_by_key(keys.member(org_id, user_id) for user_id in user_ids)
    members = (Member.from_item(item) for item in found.values())
    return {member.user_id: member for member in members}


def members_page(org_id: str, *, sort: str, forward: bool, limit: int, start_key: dict[str, Any] | None,
                 role: str | None = None, search: str | None = None) -> table.QueryPage:
    """One page of members by join date (GSI2) or by last activity (GSI3, which holds only members that
    have been active); `role` ("guest" for none) and `search` narrow the page, never the key range."""
    return _members_query(org_id, sort, role, search, forward=forward, limit=limit,
                          start_key=start_key).run()


def members_count(org_id: str, *, sort: str, role: str | None = None, search: str | None = None) -> int:
    """How many members `members_page` lists over all its pages: one `Select=COUNT` Query."""
    return _members_query(org_id, sort, role, search).count()


def _members_query(org_id: str, sort: str, role: str | None, search: str | None, *, forward: bool = True,
                   limit: int = 1, start_key: dict[str, Any] | None = None) -> table.Query:
    if sort == "lastSeenAt":
        index, partition = "GSI3", keys.members_by_activity_partition(org_id)
    else:
        index, partition = "GSI2", keys.members_by_joined_partition(org_id)
    conditions: list[ConditionBase] = []
    if role == "guest":
        conditions.append(Attr("role").not_exists() | Attr("role").attribute_type("NULL"))
    elif role:
        conditions.append(Attr("role").eq(role))
    if search:
        conditions.append(Attr("search").contains(search.lower()))
    condition: ConditionBase | None = None
    for part in conditions:
        condition = part if condition is None else condition & part
    return table.Query(partition=partition, index=index, forward=forward, limit=limit, start_key=start_key,
                       filter=condition)


def _holds_role(role: str | None) -> tuple[str, dict[str, Any]]:
    """A condition that the member item still has `role`: counters are only moved from a known state."""
    if role is None:
        return "(attribute_not_exists(#r) OR attribute_type(#r, :null))", {":null": "NULL"}
    return "#r = :was", {":was": role}


ADMIN_COUNT = "admin-count"  # the name of `_admins_op` in a transaction


def _admins_op(org_id: str, admins: int, members: int = 0) -> table.Op:
    """The organization's counters; taking an admin away requires another admin to remain."""
    if admins < 0:
        return table.update_op(keys.org(org_id), "ADD memberCount :m, adminCount :a",
                               {":m": members, ":a": admins, ":one": 1}, "adminCount > :one",
                               name=ADMIN_COUNT)
    return table.update_op(keys.org(org_id), "ADD memberCount :m, adminCount :a",
                           {":m": members, ":a": admins}, "attribute_exists(PK)", name=ADMIN_COUNT)


def _admin_delta(before: str | None, after: str | None) -> int:
    return (after == "admin") - (before == "admin")


def _raise_for(error: table.TransactionConflict) -> NoReturn:
    """The organization's counter condition failing means the last admin; anything else is a race."""
    if error.failed(ADMIN_COUNT):
        raise BadRequest(LAST_ADMIN) from error
    raise Conflict("The member changed while this request ran; nothing was changed, try again.") from error


def change_role(member: Member, role: str | None) -> None:
    """The member's role and the organization's admin counter, in one transaction."""
    holds, values = _holds_role(member.role)
    key = keys.member(member.org_id, member.user_id)
    ops = [table.update_op(key, "SET #r = :role", {":role": role, **values},
                           f"attribute_exists(PK) AND {holds}", names={"#r": "role"})]
    delta = _admin_delta(member.role, role)
    if delta:
        ops.append(_admins_op(member.org_id, delta))
    try:
        table.transact(ops)
    except table.TransactionConflict as error:
        _raise_for(error)
    member.role = role


def set_sso(member: Member) -> None:
    table.transact([table.update_op(keys.member(member.org_id, member.user_id), "SET sso = :t", {":t": True},
                                    "attribute_exists(PK)")])
    member.sso = True


def _leave_team_ops(link: team_store.TeamLink) -> list[table.Op]:
    """A team membership and its team's counter (the member's is moved once per transaction)."""
    return [team_store.remove_link_op(link), team_store.team_members_op(link.org_id, link.team_id, -1)]


def remove_member(member: Member) -> None:
    """The membership, the member's team memberships, their direct grants on the organization's spaces
    and collections (store.grants), and every counter these move.

    What cannot go in one transaction with the member goes first, in steps that are each atomic and move
    the counters they touch: grants a GSI1 page (of 49) per step with their nodes' map entries, then team
    memberships 49 per step. A failure part-way leaves a consistent member with fewer grants or teams, and
    a retry finishes. The last transaction removes the member (their `spaces` counter goes with the item)
    only if their `teams` and `spaces` counters show that no team membership and no space grant was added
    meanwhile (GSI1, read here, may lag a just-added one).
    """
    org_id, user_id = member.org_id, member.user_id
    links = team_store.all_links_of_member(org_id, user_id)
    per = team_store.LINKS_PER_TRANSACTION
    try:
        grants = grant_store.remove_grants(org_id, "user", user_id, keep=per - len(links))
        while len(links) + len(grants) > per:
            chunk, links = links[:per], links[per:]
            table.transact([*(op for link in chunk for op in _leave_team_ops(link)),
                            team_store.member_teams_op(org_id, user_id, -len(chunk))])
    except table.TransactionConflict as error:
        _raise_for(error)
    holds, values = _holds_role(member.role)

    def last_step() -> list[table.Op]:
        removal = grant_store.grant_removal(org_id, "user", user_id, grants)
        ops = [
            team_store.delete_if_op(keys.member(org_id, user_id),
                                    f"attribute_exists(PK) AND teams = :n AND #s = :s AND {holds}",
                                    {":n": len(links), ":s": removal.spaces, **values},
                                    {"#r": "role", "#s": "spaces"}),
            _admins_op(org_id, -_admin_delta(None, member.role), members=-1),
            org_count_op(user_id, -1),
        ]
        return [*ops, *(op for link in links for op in _leave_team_ops(link)), *removal.ops]

    try:
        grant_store.transact_step(last_step)
    except table.TransactionConflict as error:
        _raise_for(error)
