"""Members of an organization: list, read, change role, mark as SSO, remove, and their teams.

Members with a role see every member; a guest (null role) sees only their own membership and teams.
Admins change roles, mark SSO and remove members; anyone may leave, and their teams and grants go with
them. The organization always keeps an admin: demoting or removing the last one is a 400.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess
from bindery.domain.access.roles import at_least
from bindery.domain.access.scoped import Scoped, scoped_access
from bindery.domain.teams import TeamView, team_views
from bindery.platform.errors import BadRequest, Forbidden, NotFound
from bindery.platform.pagination import (
    MAX_LIMIT,
    Listing,
    carried_count,
    decode_cursor,
    encode_cursor,
    next_page,
    open_page,
)
from bindery.store import Key
from bindery.store import members as member_store
from bindery.store import teams as team_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.members import LAST_ADMIN, Member
from bindery.store.teams import Team, TeamLink

NO_MEMBER = "No matching member"


@dataclass(frozen=True)
class MemberTeamView:
    """One of a member's teams (with the caller's permissions on it) and that member's role in it."""

    team: TeamView
    role: str


def list_members(access: OrgAccess, *, limit: int, page: str | None, order: str, sort: str,
                 role: str | None, search: str | None) -> Listing[Member]:
    """One Query per page. `count` comes from the organization's member counter for the listing by join
    date without filters; a filtered listing (or the one by activity, which holds only members that have
    been active) counts with one more, `Select=COUNT`, Query."""
    access.require("read", "list the members of this organization")
    term = search.lower() if search else ""
    # `search` is last: it is the only free text, so the scope cannot be read two ways.
    scope = f"members:{access.org.id}:{sort}:{order}:{role or ''}:{term}"
    result = member_store.members_page(access.org.id, sort=sort, forward=order == "asc", limit=limit,
                                       start_key=decode_cursor(scope, page), role=role, search=term or None)
    if sort == "joinedAt" and not role and not term:
        count = access.org.member_count
    else:
        count = member_store.members_count(access.org.id, sort=sort, role=role, search=term or None)
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    return Listing(items=[Member.from_item(item) for item in result.items],
                   next_cursor=cursor, count=count)


def _target(caller: Caller, org_id: str, user_id: str, *extra: Key) -> tuple[Scoped, Member | None]:
    scoped = scoped_access(org_id, caller, member_store.member_key(org_id, user_id), *extra)
    return scoped, scoped.member(user_id)


def _require_visible(access: OrgAccess, user_id: str) -> None:
    if user_id != access.member.user_id and not at_least(access.role, "read"):
        raise Forbidden("Guests can only see their own membership")


def get_member(caller: Caller, org_id: str, user_id: str) -> Member:
    """The organization, the caller's membership and the member asked for: one BatchGetItem."""
    scoped, member = _target(caller, org_id, user_id)
    _require_visible(scoped.access, user_id)
    if member is None:
        raise NotFound(NO_MEMBER)
    return member


def change_role(caller: Caller, org_id: str, user_id: str, role: str | None) -> Member:
    scoped, member = _target(caller, org_id, user_id)
    scoped.access.require("admin", "change the role of members")
    if member is None:
        raise NotFound(NO_MEMBER)
    if member.role != role:
        # Checked here for a clear answer without a write; the transaction's condition covers races.
        if member.role == "admin" and scoped.access.org.admin_count <= 1:
            raise BadRequest(LAST_ADMIN)
        member_store.change_role(member, role)
    return member


def set_sso(caller: Caller, org_id: str, user_id: str) -> Member:
    scoped, member = _target(caller, org_id, user_id)
    scoped.access.require("admin", "mark members as SSO members")
    if member is None:
        raise NotFound(NO_MEMBER)
    if not member.sso:
        member_store.set_sso(member)
    return member


def remove_member(caller: Caller, org_id: str, user_id: str) -> None:
    """An admin removes anyone, a member removes themself (leaves); someone who is not a member is
    already removed (204). Their team memberships and their direct grants on the organization's spaces
    and collections go with them, so that inviting them back gives none of that access back."""
    scoped, member = _target(caller, org_id, user_id)
    if user_id != caller.user_id:
        scoped.access.require("admin", "remove members")
    if member is None:
        return
    if member.role == "admin" and scoped.access.org.admin_count <= 1:
        raise BadRequest(LAST_ADMIN)
    member_store.remove_member(member)


def member_teams(caller: Caller, org_id: str, user_id: str, *, limit: int, page: str | None,
                 title: str | None) -> Listing[MemberTeamView]:
    """A page of the member's team memberships (GSI1), then one BatchGetItem for their teams. The title
    filter applies to the teams read, so a page may be short and still have a next page."""
    scoped, member = _target(caller, org_id, user_id)
    access = scoped.access
    _require_visible(access, user_id)
    if member is None:
        raise NotFound(NO_MEMBER)
    term = title.lower() if title else ""
    scope = f"member-teams:{org_id}:{user_id}:{term}"
    start = open_page(scope, page)

    def read(start_key: dict[str, Any] | None, size: int
             ) -> tuple[list[tuple[Team, TeamLink]], dict[str, Any] | None]:
        result = team_store.links_of_member_page(org_id, user_id, size, start_key)
        links = [TeamLink.from_item(item) for item in result.items]
        found = items_by_key(team_store.team_key(org_id, link.team_id) for link in links)
        teams = ((link, found.get(ref(team_store.team_key(org_id, link.team_id)))) for link in links)
        pairs = [(Team.from_item(item), link) for link, item in teams if item]
        return [(team, link) for team, link in pairs if term in team.title.lower()], result.last_key

    pairs, last_key = read(start.start, limit)
    # The caller's own memberships are the listed ones when they list their own teams.
    known = {link.team_id: link for _, link in pairs} if user_id == caller.user_id else None
    views = team_views(access, [team for team, _ in pairs], known)
    items = [MemberTeamView(view, link.role) for view, (_, link) in zip(views, pairs, strict=True)]
    if not term:
        # Unfiltered, the member's `teams` counter is the count.
        return Listing(items, next_page(scope, last_key), member.teams)

    # The title filter applies to the teams read: the first page counts the matches with a pass over the
    # rest of the member's teams, and its cursor carries the count.
    def matching(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        more, more_last = read(start_key, MAX_LIMIT)
        return len(more), more_last

    count = carried_count(start, (len(pairs), last_key), matching)
    return Listing(items, next_page(scope, last_key, count), count)
