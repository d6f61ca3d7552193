"""Membership of teams: list, add, change roles, remove.

Org admins and the team's owners manage a team's membership; any member may leave a team. Only members of
the organization can join its teams. Every change is one transaction that moves the team's `members` and
each member's `teams` counter with it; a concurrent change that invalidates it is a 409, never a drift.
"""

from __future__ import annotations

from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.scoped import Scoped, scoped_access
from bindery.domain.teams import can_manage, can_view, scoped_team
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Conflict, Forbidden, NotFound
from bindery.platform.pagination import Listing, decode_cursor, encode_cursor
from bindery.requests.members import MAX_MEMBER_CHANGES, UpdateTeamMembers
from bindery.store import Op, Transaction, TransactionConflict
from bindery.store import members as member_store
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.members import Member
from bindery.store.teams import Team, TeamLink

NO_MEMBER = "No matching member"
RACED = "The team's membership changed while this request ran; nothing was changed, try again."


@dataclass(frozen=True)
class TeamMembership:
    """A member of the organization as seen from one team: their membership and their role in the team."""

    member: Member
    link: TeamLink


def _require_manage(scoped: Scoped, team: Team) -> None:
    if not can_manage(scoped.access, scoped.link(team.id, scoped.access.member.user_id)):
        raise Forbidden("Only organization admins and the team's owners can manage its members")


def _apply(team: Team, ops: list[Op], delta: int) -> None:
    """Writes `ops` with the team's counter moved by `delta`: one update for the whole request, as a
    transaction may touch each item only once."""
    if delta:
        ops.append(team_store.team_members_op(team.org_id, team.id, delta))
    if not ops:
        return
    try:
        Transaction(ops).commit()
    except TransactionConflict as error:
        raise Conflict(RACED) from error


def list_team_members(caller: Caller, org_id: str, team_id: str,
                      limit: int, page: str | None) -> Listing[TeamMembership]:
    """A page of the team's memberships (one Query), with their members (one BatchGetItem)."""
    scoped, team = scoped_team(caller, org_id, team_id)
    if not can_view(scoped.access, scoped.link(team_id, caller.user_id)):
        raise Forbidden("Guests can only see the members of the teams they belong to")
    scope = f"team-members:{org_id}:{team_id}"
    result = team_store.links_of_team_page(org_id, team_id, limit, decode_cursor(scope, page))
    links = [TeamLink.from_item(item) for item in result.items]
    members = member_store.get_members(org_id, [link.user_id for link in links])
    items = [TeamMembership(members[link.user_id], link) for link in links if link.user_id in members]
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    return Listing(items=items, next_cursor=cursor, count=team.members)


def add_team_member(caller: Caller, org_id: str, team_id: str, user_id: str, role: str | None) -> None:
    """Adds an organization member to the team (as `member` unless `role` says otherwise); for someone
    already in the team, only a given `role` changes anything."""
    scoped, team = scoped_team(caller, org_id, team_id, member_store.member_key(org_id, user_id),
                               team_store.link_key(org_id, team_id, user_id))
    _require_manage(scoped, team)
    if scoped.member(user_id) is None:
        raise NotFound(NO_MEMBER)
    existing = scoped.link(team_id, user_id)
    if existing is None:
        link = TeamLink(org_id, team_id, user_id, role or "member", now_iso())
        _apply(team, team_store.add_link_ops(link), 1)
    elif role and role != existing.role:
        _apply(team, [team_store.set_role_op(existing, role)], 0)


def remove_team_member(caller: Caller, org_id: str, team_id: str, user_id: str) -> None:
    """Removes a membership; a missing team or membership is already the wanted state (204)."""
    scoped = scoped_access(org_id, caller, team_store.team_key(org_id, team_id),
                           team_store.link_key(org_id, team_id, caller.user_id),
                           team_store.link_key(org_id, team_id, user_id))
    team = scoped.team(team_id)
    if team is None:
        return
    if user_id != caller.user_id:
        _require_manage(scoped, team)
    link = scoped.link(team_id, user_id)
    if link is not None:
        _apply(team, [team_store.remove_link_op(link), team_store.member_teams_op(org_id, user_id, -1)], -1)


def _resolve(field: str, refs: list[str]) -> list[str]:
    """User ids for `refs`, which may be ids or emails (an email names a user, or is a 400), once each:
    an id and the email of the same user must not become two writes of one item."""
    user_ids = []
    for value in dict.fromkeys(refs):
        if "@" not in value:
            user_ids.append(value)
            continue
        user_id = user_store.user_id_for_email(value)
        if user_id is None:
            raise BadRequest(f"{field}: no user has the email {value}")
        user_ids.append(user_id)
    return list(dict.fromkeys(user_ids))


def update_team_members(caller: Caller, org_id: str, team_id: str, body: UpdateTeamMembers) -> None:
    """`add` joins users as `member` (keeping the role of those already in), `memberships` sets roles
    (joining users not yet in), `remove` takes users out; all in one transaction, or none of it."""
    scoped, team = scoped_team(caller, org_id, team_id)
    _require_manage(scoped, team)
    wanted: dict[str, str | None] = dict.fromkeys(_resolve("add", body.add))
    wanted.update({user_id: membership.role for user_id, membership in body.memberships.items()})
    removed = _resolve("remove", body.remove)
    for user_id in removed:
        if user_id in wanted:
            raise BadRequest(f"remove: {user_id} is also being added")
    if len(wanted) + len(removed) > MAX_MEMBER_CHANGES:
        raise BadRequest(f"add: at most {MAX_MEMBER_CHANGES} members can change in one request")
    found = items_by_key([*(member_store.member_key(org_id, user_id) for user_id in wanted),
                          *(team_store.link_key(org_id, team_id, user_id)
                            for user_id in [*wanted, *removed])])
    ops: list[Op] = []
    delta = 0
    added_at = now_iso()
    for user_id, role in wanted.items():
        if ref(member_store.member_key(org_id, user_id)) not in found:
            field = "memberships" if user_id in body.memberships else "add"
            raise BadRequest(f"{field}: {user_id} is not a member of this organization")
        item = found.get(ref(team_store.link_key(org_id, team_id, user_id)))
        if item is None:
            link = TeamLink(org_id, team_id, user_id, role or "member", added_at)
            ops.extend(team_store.add_link_ops(link))
            delta += 1
        elif role and role != item["role"]:
            ops.append(team_store.set_role_op(TeamLink.from_item(item), role))
    for user_id in removed:
        item = found.get(ref(team_store.link_key(org_id, team_id, user_id)))
        if item is not None:
            ops.extend((team_store.remove_link_op(TeamLink.from_item(item)),
                        team_store.member_teams_op(org_id, user_id, -1)))
            delta -= 1
    _apply(team, ops, delta)
