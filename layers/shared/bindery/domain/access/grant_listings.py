"""Who holds which role on a space or collection, and which spaces a member was given (docs/permissions.md).

Whoever can read a space or collection may list its grants (guests see the users without their email, as
everywhere else); the results are typed views, shaped for the wire by bindery.api.wire.spaces. Writes are
in domain.access.grants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import ContentAccess, roles_on
from bindery.domain.access.grants import node_access
from bindery.domain.access.roles import at_least
from bindery.domain.access.scoped import scoped_access
from bindery.platform.errors import Forbidden, NotFound
from bindery.platform.pagination import (
    MAX_LIMIT,
    Listing,
    carried_count,
    decode_cursor,
    encode_cursor,
    next_page,
    open_page,
)
from bindery.store import grants as grant_store
from bindery.store import members as member_store
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.grants import Grant
from bindery.store.spaces import Space, get_spaces
from bindery.store.teams import Team, TeamLink
from bindery.store.users import User


@dataclass(frozen=True)
class UserGrantView:
    """A user's grant on a space or collection; `show_email` is false for a guest caller, who sees users
    without their email (as everywhere else)."""

    permission: str
    user: User
    show_email: bool


@dataclass(frozen=True)
class TeamGrantView:
    """A team's grant; `admin` (may manage the team) and `view` (may see it) are the caller's."""

    permission: str
    team: Team
    admin: bool
    view: bool


@dataclass(frozen=True)
class MemberSpaceView:
    """A space a member holds the direct grant `permission` on, with the caller's own `role` on it (what
they may do there, not what the member may)."""

    permission: str
    space: Space
    role: str | None


def _grants_page(access: ContentAccess, principal: str, limit: int,
                 page: str | None) -> tuple[list[Grant], str | None]:
    node = access.node
    scope = f"grants:{node.kind}:{node.id}:{principal}"
    result = grant_store.grants_page(node.kind, node.id, principal, limit, decode_cursor(scope, page))
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    return [Grant.from_item(item) for item in result.items], cursor


def list_users(caller: Caller, kind: str, content_id: str, limit: int,
               page: str | None) -> Listing[UserGrantView]:
    """One Query of the node's user grants and one BatchGetItem of their users; `count` comes from the
    node's own map, which holds the same grants."""
    access = node_access(caller, kind, content_id)
    grants, cursor = _grants_page(access, "user", limit, page)
    users = user_store.get_users([grant.principal_id for grant in grants])
    show_email = access.member.role is not None
    items = [UserGrantView(grant.role, users[grant.principal_id], show_email)
             for grant in grants if grant.principal_id in users]
    count = sum(1 for entry in access.node.grants if entry.startswith("user:"))
    return Listing(items=items, next_cursor=cursor, count=count)


def list_teams(caller: Caller, kind: str, content_id: str, limit: int,
               page: str | None) -> Listing[TeamGrantView]:
    """One Query of the node's team grants, one BatchGetItem of the teams and of the caller's memberships
    of them (their `permissions` are the caller's). `count` comes from the node's own map, which holds the
    same grants: deleting a team takes its grants and their map entries (store.teams.delete_team)."""
    access = node_access(caller, kind, content_id)
    grants, cursor = _grants_page(access, "team", limit, page)
    org_id, member = access.node.org_id, access.member
    found = items_by_key([k for grant in grants for k in (
        team_store.team_key(org_id, grant.principal_id),
        team_store.link_key(org_id, grant.principal_id, member.user_id))])
    items = []
    for grant in grants:
        team_item = found.get(ref(team_store.team_key(org_id, grant.principal_id)))
        if team_item is None:
            continue
        link_item = found.get(ref(team_store.link_key(org_id, grant.principal_id, member.user_id)))
        link = TeamLink.from_item(link_item) if link_item else None
        admin = member.role == "admin" or (link is not None and link.role == "owner")
        view = at_least(member.role, "read") or link is not None
        items.append(TeamGrantView(grant.role, Team.from_item(team_item), admin, view))
    count = sum(1 for entry in access.node.grants if entry.startswith("team:"))
    return Listing(items=items, next_cursor=cursor, count=count)


def member_spaces(caller: Caller, org_id: str, user_id: str, *, limit: int, page: str | None,
                  order: str) -> Listing[MemberSpaceView]:
    """The spaces the member has a direct grant on (GSI1, by space id), with that grant as `permission`.
    Each space is shown as the caller sees it, and only if the caller can see it; deleted spaces are left
    out, so a page may be short and still have a next one."""
    scoped = scoped_access(org_id, caller, member_store.member_key(org_id, user_id))
    viewer = scoped.access.member
    if user_id != caller.user_id and not at_least(viewer.role, "read"):
        raise Forbidden("Guests can only see their own spaces")
    if scoped.member(user_id) is None:
        raise NotFound("No matching member")
    # The viewer is in the scope: the count a cursor carries is what they see.
    scope = f"member-spaces:{org_id}:{user_id}:{order}:{caller.user_id}"
    start = open_page(scope, page)

    def read(start_key: dict[str, Any] | None, size: int
             ) -> tuple[list[tuple[Grant, Space]], dict[str, str | None], dict[str, Any] | None]:
        result = grant_store.user_grants_page(org_id, user_id, "space", forward=order == "asc", limit=size,
                                              start_key=start_key)
        grants = [Grant.from_item(item) for item in result.items]
        spaces = get_spaces([grant.content_id for grant in grants])
        live = [(grant, spaces[grant.content_id]) for grant in grants if grant.content_id in spaces
                and spaces[grant.content_id].deleted_at is None and spaces[grant.content_id].org_id == org_id]
        return live, roles_on(viewer, [space for _, space in live]), result.last_key

    live, roles, last_key = read(start.start, limit)
    items = [MemberSpaceView(grant.role, space, roles[space.id])
             for grant, space in live if roles[space.id] is not None]

    # Which granted spaces are live and visible to the viewer is known only once they are read: the
    # first page counts them with a pass over the rest of the member's grants; its cursor carries it.
    def visible(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        _, seen, more_last = read(start_key, MAX_LIMIT)
        return sum(role is not None for role in seen.values()), more_last

    count = carried_count(start, (len(items), last_key), visible)
    return Listing(items, next_page(scope, last_key, count), count)
