"""Grants on spaces and collections: invite users and teams, change or remove their role
(docs/permissions.md). Listing them, and the spaces a member was given, is domain.access.grant_listings.

Managing grants needs the admin role on the space or collection. Anyone may remove their own grant.
A user invited who is not a member of the organization joins it as a guest (null role) in the same
transaction; an email nobody has yet becomes a new, unverified user first, as organization invites do.
Every write re-reads and retries when a concurrent change wins the race, and is all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import ContentAccess, collection_access, space_access
from bindery.platform.clock import now_iso
from bindery.platform.errors import Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.requests.grants import InviteUsersAndTeams
from bindery.store import Op, Transaction, TransactionConflict
from bindery.store import grants as grant_store
from bindery.store import members as member_store
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.content_nodes import Node
from bindery.store.grants import Grant, map_key
from bindery.store.members import Member
from bindery.store.users import User, user_put_ops

RACED = "The permissions changed while this request ran; nothing was changed, try again."
_ATTEMPTS = 3  # a lost race re-reads and tries again; a few rounds settle any realistic one
Ops = list[Op]


def node_access(caller: Caller, kind: str, content_id: str) -> ContentAccess:
    return space_access(caller, content_id) if kind == "space" else collection_access(caller, content_id)


def _write(caller: Caller, kind: str, content_id: str, plan: Callable[[ContentAccess], Ops]) -> bool:
    """Read the node, let `plan` decide the operations, write them all or none; a transaction that loses a
    race starts over from a fresh read. False when there was nothing to write."""
    for _ in range(_ATTEMPTS):
        ops = plan(node_access(caller, kind, content_id))
        if not ops:
            return False
        try:
            Transaction(ops).commit()
        except TransactionConflict:
            continue
        return True
    raise Conflict(RACED)


def _require_admin(access: ContentAccess) -> None:
    access.require("admin", f"manage who can access this {access.node.kind}")


def _grant(node: Node, principal: str, principal_id: str, role: str) -> Grant:
    return Grant(node.kind, node.id, node.org_id, principal, principal_id, role)


def _change_ops(node: Node, principal: str, principal_id: str, role: str | None, *, present: bool) -> Ops:
    """The grant item and the principal's side of one change (the node's map is written by the caller).
    `present`: the member or team still exists (a removal of someone gone moves no counter)."""
    current = node.grant_for(principal, principal_id)
    if role is None:
        grant_key = grant_store.grant_key(node.kind, node.id, principal, principal_id)
        ops = [grant_store.delete_grant_op(grant_key)]
        if present and node.kind == "space":
            ops += grant_store.principal_ops(node, principal, principal_id, -1)
        return ops
    ops = grant_store.principal_ops(node, principal, principal_id, 1 if current is None else 0)
    return [*ops, grant_store.put_grant_op(_grant(node, principal, principal_id, role), new=current is None)]


def _finish(node: Node, changes: dict[str, str | None], ops: Ops) -> Ops:
    return [*ops, grant_store.node_grants_op(node, changes, grant_store.next_updated_at(node.updated_at))]


# --- invite -------------------------------------------------------------------------------------
def _resolve_users(refs: list[str]) -> tuple[list[str], set[str], list[str]]:
    """(user ids, the ids that came from an email, emails nobody has), each once."""
    emails = [ref_ for ref_ in refs if "@" in ref_]
    # items_by_key drops repeated keys (the same email in two cases), which BatchGetItem refuses.
    found = items_by_key(user_store.email_key(email) for email in emails)
    ids: list[str] = []
    from_email: set[str] = set()
    unknown: list[str] = []
    for value in refs:
        if "@" not in value:
            ids.append(value)
        elif (guard := found.get(ref(user_store.email_key(value)))) is not None:
            ids.append(guard["userId"])
            from_email.add(guard["userId"])
        elif value.lower() not in {email.lower() for email in unknown}:
            unknown.append(value)
    return list(dict.fromkeys(ids)), from_email, unknown


@dataclass
class _Invitation:
    """The writes of one invite, gathered principal by principal."""

    node: Node
    role: str | None
    joined_at: str
    ops: Ops = field(default_factory=list)
    changes: dict[str, str | None] = field(default_factory=dict)
    new_members: int = 0

    def change(self, principal: str, principal_id: str, *, present: bool) -> None:
        if self.node.grant_for(principal, principal_id) != self.role:
            self.ops += _change_ops(self.node, principal, principal_id, self.role, present=present)
            self.changes[map_key(principal, principal_id)] = self.role

    def add_guest(self, user: User, role: str, *, new_user: bool = False) -> None:
        """A user who is not a member joins as a guest, with this grant (and its count) already on them."""
        guest = Member.joining(self.node.org_id, user, None, self.joined_at)
        guest.spaces = 1 if self.node.kind == "space" else 0
        if new_user:
            user.org_count = 1  # created in this transaction, which may touch its item only once
        self.ops += [*(user_put_ops(user) if new_user else [user_store.org_count_op(user.id, 1)]),
                     member_store.new_member_op(guest),
                     grant_store.put_grant_op(_grant(self.node, "user", user.id, role),
                                              new=self.node.grant_for("user", user.id) is None)]
        self.changes[map_key("user", user.id)] = role
        self.new_members += 1

    def finished(self) -> Ops:
        if not self.changes:
            return []
        if self.new_members:
            self.ops.append(grant_store.add_member_count_op(self.node.org_id, self.new_members))
        return _finish(self.node, self.changes, self.ops)


def _invite_plan(body: InviteUsersAndTeams) -> Callable[[ContentAccess], Ops]:
    refs = list(dict.fromkeys(value.strip() for value in body.users or []))
    team_ids = list(dict.fromkeys(body.teams or []))
    role = body.role

    def plan(access: ContentAccess) -> Ops:
        _require_admin(access)
        node, org_id = access.node, access.node.org_id
        user_ids, from_email, unknown = _resolve_users(refs)
        found = items_by_key([*(k for uid in user_ids
                                for k in (user_store.user_key(uid), member_store.member_key(org_id, uid))),
                              *(team_store.team_key(org_id, tid) for tid in team_ids)])
        invitation = _Invitation(node, role, now_iso())
        for user_id in user_ids:
            user_item = found.get(ref(user_store.user_key(user_id)))
            if user_item is None:
                if user_id in from_email:  # an email guard without its user: never invent a second one
                    raise Conflict(f"users: the user {user_id} cannot be read; nothing changed")
                raise NotFound(f"users: no user with the id {user_id}")
            present = ref(member_store.member_key(org_id, user_id)) in found
            if role is not None and not present:
                invitation.add_guest(User.from_item(user_item), role)
            else:
                invitation.change("user", user_id, present=present)
        for email in unknown:
            if role is not None:  # a null role takes grants away, and nobody has these emails yet
                user = User(id=new_id(), display_name=email.split("@", 1)[0], email=email,
                            email_verified=False, created_at=invitation.joined_at)
                invitation.add_guest(user, role, new_user=True)
        for team_id in team_ids:
            present = ref(team_store.team_key(org_id, team_id)) in found
            if not present and role is not None:
                raise NotFound(f"teams: no team {team_id} in this organization")
            invitation.change("team", team_id, present=present)  # a deleted team's grant can still go
        return invitation.finished()

    return plan


def invite(caller: Caller, kind: str, content_id: str, body: InviteUsersAndTeams) -> None:
    """Give `role` to every user and team named (null: take their grants away)."""
    _write(caller, kind, content_id, _invite_plan(body))


# --- one user or team ---------------------------------------------------------------------------
def set_role(caller: Caller, kind: str, content_id: str, principal: str, principal_id: str, *,
             role: str | None) -> None:
    """Change the role of a user or team that has a grant here (404 otherwise); null removes it."""

    def plan(access: ContentAccess) -> Ops:
        _require_admin(access)
        node = access.node
        current = node.grant_for(principal, principal_id)
        if current is None:
            if role is None:
                return []  # nothing to take away
            raise NotFound(f"No {principal} {principal_id} has a permission on this {kind}")
        if current == role:
            return []
        present = grant_store.principal_exists(node.org_id, principal, principal_id)
        if role is not None and not present:
            raise NotFound(f"No {principal} {principal_id} in this organization")
        return _finish(node, {map_key(principal, principal_id): role},
                       _change_ops(node, principal, principal_id, role, present=present))

    _write(caller, kind, content_id, plan)


def remove(caller: Caller, kind: str, content_id: str, principal: str, principal_id: str) -> bool:
    """Take a grant away; False when there was none. Users may remove themselves without being admins."""

    def plan(access: ContentAccess) -> Ops:
        if not (principal == "user" and principal_id == caller.user_id):
            _require_admin(access)
        node = access.node
        if node.grant_for(principal, principal_id) is None:
            return []
        present = grant_store.principal_exists(node.org_id, principal, principal_id)
        return _finish(node, {map_key(principal, principal_id): None},
                       _change_ops(node, principal, principal_id, None, present=present))

    return _write(caller, kind, content_id, plan)
