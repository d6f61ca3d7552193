"""Invite links (items in the organization's partition, counted by the organization's `inviteCount`) and
the writes of email invites and of joining through a link."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery import keys
from bindery.store import table
from bindery.store.members import Member, add_member_ops
from bindery.store.orgs import Organization
from bindery.store.table import Item
from bindery.store.users import User, org_count_op, user_put_ops

# Condition on the organization item: the `inviteLinks` switch is on (items written before the switch
# existed have no attribute, and the switch defaults to on).
_LINKS_ON = "attribute_exists(PK) AND (attribute_not_exists(inviteLinks) OR inviteLinks = :on)"


@dataclass
class LinkInvite:
    """An invite link. `role` is the organization role it grants; for a link to a space or a collection it
    is the `level` in that space or collection (exactly one of `space`, `collection` is then set)."""

    org_id: str
    id: str
    role: str | None
    created_at: str
    created_by: str
    space: str | None = None
    collection: str | None = None

    @property
    def target(self) -> str:
        return "space" if self.space else "collection" if self.collection else "organization"

    def to_item(self) -> Item:
        item: Item = {**keys.link_invite(self.org_id, self.id), "type": "link-invite", "orgId": self.org_id,
                      "id": self.id, "role": self.role, "createdAt": self.created_at,
                      "createdBy": self.created_by}
        for name, value in (("space", self.space), ("collection", self.collection)):
            if value:
                item[name] = value
        return item

    @classmethod
    def from_item(cls, item: Item) -> LinkInvite:
        return cls(org_id=item["orgId"], id=item["id"], role=item.get("role"), created_at=item["createdAt"],
                   created_by=item.get("createdBy", ""), space=item.get("space"),
                   collection=item.get("collection"))


# --- invite links -------------------------------------------------------------------------------
def get_link_invite(org_id: str, invite_id: str) -> LinkInvite | None:
    item = table.get(keys.link_invite(org_id, invite_id))
    return LinkInvite.from_item(item) if item else None


def link_invites_page(org_id: str, limit: int,
                      start_key: dict[str, Any] | None) -> tuple[list[LinkInvite], dict[str, Any] | None]:
    """One page of an organization's links, oldest first (ids are time-ordered, so the order is stable)."""
    page = table.Query(partition=keys.org_partition(org_id), prefix=keys.LINK_INVITE_PREFIX, limit=limit,
                       start_key=start_key).run()
    return [LinkInvite.from_item(item) for item in page.items], page.last_key


def create_link_invite(invite: LinkInvite) -> None:
    """The link and the organization's counter; refused (TransactionConflict) once links are switched off,
    even if that happened after the caller read the organization."""
    table.transact([
        table.put_op(invite.to_item(), "attribute_not_exists(PK)"),
        table.update_op(keys.org(invite.org_id), "ADD inviteCount :one", {":one": 1, ":on": True}, _LINKS_ON),
    ])


def set_link_invite_role(invite: LinkInvite, role: str | None) -> None:
    """Change the role (or level) a link grants; TransactionConflict when the link is gone."""
    table.transact([table.update_op(keys.link_invite(invite.org_id, invite.id), "SET #role = :role",
                                    {":role": role}, "attribute_exists(PK)", names={"#role": "role"})])
    invite.role = role


def delete_link_invite(org_id: str, invite_id: str) -> bool:
    """Delete a link and count it down; False (and nothing counted) when there was no such link."""
    try:
        table.transact([
            table.delete_op(keys.link_invite(org_id, invite_id), "attribute_exists(PK)"),
            table.update_op(keys.org(org_id), "ADD inviteCount :minus", {":minus": -1},
                            "attribute_exists(PK)"),
        ])
    except table.TransactionConflict:
        return False
    return True


@dataclass
class JoinContext:
    """What joining through a link needs, read in one BatchGetItem."""

    org: Organization | None
    invite: LinkInvite | None
    member: Member | None
    user: User | None


def join_context(org_id: str, invite_id: str, user_id: str) -> JoinContext:
    context = JoinContext(org=None, invite=None, member=None, user=None)
    wanted = [keys.org(org_id), keys.link_invite(org_id, invite_id), keys.member(org_id, user_id),
              keys.user(user_id)]
    for item in table.batch_get(wanted):
        kind = item.get("type")
        if kind == "organization":
            context.org = Organization.from_item(item)
        elif kind == "link-invite":
            context.invite = LinkInvite.from_item(item)
        elif kind == "member":
            context.member = Member.from_item(item)
        elif kind == "user":
            context.user = User.from_item(item)
    return context


def join_with_link(member: Member, invite: LinkInvite) -> None:
    """The membership, the counters, and a check that the link still exists, in one transaction.

    The `inviteLinks` switch is checked by the caller on the organization it read: `add_member_ops`
    already updates the organization item, and one transaction may not touch an item twice.
    """
    table.transact([*add_member_ops(member),
                    table.condition_op(keys.link_invite(invite.org_id, invite.id), "attribute_exists(PK)")])


def invite_target(org_id: str, kind: str, target_id: str) -> Item | None:
    """The space or collection a link would point at, if it exists, is live and belongs to `org_id`."""
    if kind == "space":
        item = table.get(keys.space(target_id))
        # Space and collection partitions name no organization: the owner is checked on the item.
        owner = item.get("orgId", item.get("organization")) if item else None
    else:
        item = table.get(keys.collection(target_id))
        owner = item.get("orgId") if item else None
    if item is None or owner != org_id or item.get("deletedAt"):
        return None
    return item


# --- email invites ------------------------------------------------------------------------------
@dataclass
class Invitee:
    """Who an email names today: an existing user (and their membership, if any), or nobody."""

    email: str
    user_id: str | None = None
    user: User | None = None
    member: Member | None = None


def find_invitees(org_id: str, emails: list[str]) -> list[Invitee]:
    """Two BatchGetItems: the email guards, then the users they name and their memberships."""
    found = [Invitee(email=email) for email in emails]
    guards = {item["PK"]: item["userId"] for item in table.batch_get([keys.user_email(e) for e in emails])}
    for invitee in found:
        invitee.user_id = guards.get(keys.user_email(invitee.email)["PK"])
    wanted = list(dict.fromkeys(invitee.user_id for invitee in found if invitee.user_id))
    users: dict[str, User] = {}
    members: dict[str, Member] = {}
    for item in table.batch_get([k for uid in wanted for k in (keys.user(uid), keys.member(org_id, uid))]):
        if item.get("type") == "member":
            members[item["userId"]] = Member.from_item(item)
        else:
            users[item["id"]] = User.from_item(item)
    for invitee in found:
        if invitee.user_id:
            invitee.user = users.get(invitee.user_id)
            invitee.member = members.get(invitee.user_id)
    return found


def add_invited_members(org_id: str, new_users: list[User], members: list[Member]) -> None:
    """New users, their memberships and the organization's counters, all or nothing.

    Each `add_member_ops` would update the organization item once per member, and a transaction may touch
    an item only once, so the counters are summed here into one update (same attributes, same rules).
    """
    if not members:
        return
    created = {user.id for user in new_users}
    for user in new_users:
        user.org_count = 1
    ops: list[table.Op] = [op for user in new_users for op in user_put_ops(user)]
    ops.extend(org_count_op(member.user_id, 1) for member in members if member.user_id not in created)
    ops.extend(table.put_op(member.to_item(), "attribute_not_exists(PK)") for member in members)
    admins = sum(1 for member in members if member.role == "admin")
    ops.append(table.update_op(keys.org(org_id), "ADD memberCount :members, adminCount :admins",
                               {":members": len(members), ":admins": admins}, "attribute_exists(PK)"))
    table.transact(ops)
