"""Teams of an organization: listing, creation, renaming, deletion, and who may manage them.

Permissions: org admins create, rename and delete teams; a team's owners may rename it and manage its
membership (see domain.team_members); any member with a role sees every team, and a guest sees the teams
they belong to. Reads return each team with what the caller may do with it (`TeamView`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess
from bindery.domain.access.roles import at_least
from bindery.domain.access.scoped import Scoped, scoped_access
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Forbidden, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import (
    MAX_LIMIT,
    Listing,
    carried_count,
    decode_cursor,
    encode_cursor,
    next_page,
    open_page,
)
from bindery.requests.members import CreateTeam, UpdateTeam
from bindery.store import Key
from bindery.store import members as member_store
from bindery.store import teams as team_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.teams import Team, TeamLink

NO_TEAM = "No matching team"


@dataclass(frozen=True)
class TeamView:
    """A team and the caller's permissions on it: `can_manage` (rename it, manage its membership) and
    `can_view` (see it and list its members)."""

    team: Team
    can_manage: bool
    can_view: bool


def can_manage(access: OrgAccess, caller_link: TeamLink | None) -> bool:
    return access.is_admin or (caller_link is not None and caller_link.role == "owner")


def can_view(access: OrgAccess, caller_link: TeamLink | None) -> bool:
    return at_least(access.role, "read") or caller_link is not None


def team_view(access: OrgAccess, team: Team, caller_link: TeamLink | None) -> TeamView:
    return TeamView(team, can_manage(access, caller_link), can_view(access, caller_link))


def scoped_team(caller: Caller, org_id: str, team_id: str, *extra: Key) -> tuple[Scoped, Team]:
    """Access, the team and the caller's membership of it (plus `extra`) in one read; 404 without team."""
    scoped = scoped_access(org_id, caller, team_store.team_key(org_id, team_id),
                           team_store.link_key(org_id, team_id, caller.user_id), *extra)
    team = scoped.team(team_id)
    if team is None:
        raise NotFound(NO_TEAM)
    return scoped, team


def team_views(access: OrgAccess, teams: list[Team],
               known_links: dict[str, TeamLink] | None = None) -> list[TeamView]:
    """Teams with the caller's permissions; the caller's memberships are read (one BatchGetItem) only
    when their role alone does not decide, and only those not already `known_links`."""
    links = dict(known_links or {})
    org_id, user_id = access.org.id, access.member.user_id
    if not access.is_admin:
        missing = [team.id for team in teams if team.id not in links]
        found = items_by_key(team_store.link_key(org_id, team_id, user_id) for team_id in missing)
        for team_id in missing:
            item = found.get(ref(team_store.link_key(org_id, team_id, user_id)))
            if item:
                links[team_id] = TeamLink.from_item(item)
    return [team_view(access, team, links.get(team.id)) for team in teams]


def list_teams(access: OrgAccess, *, limit: int, page: str | None, owner: str | None,
               title: str | None) -> Listing[TeamView]:
    """`owner` keeps the teams that member can manage: every team for an org admin, otherwise the teams
    they own. A member id that is not a member of the organization manages no team: the list is empty."""
    access.require("read", "list the teams of this organization")
    term = title.lower() if title else ""
    if not owner:
        return _all_teams(access, f"teams:{access.org.id}:all::{term}", limit, page, term=term)
    owner_member = member_store.get_member(access.org.id, owner)
    if owner_member is None:
        return Listing(items=[], next_cursor=None, count=0)
    # The mode is in the scope: a cursor of one key space (teams, or an owner's memberships) must never
    # be replayed into the other, even if the owner's role changed between pages.
    if at_least(owner_member.role, "admin"):
        return _all_teams(access, f"teams:{access.org.id}:all:{owner}:{term}", limit, page, term=term)
    return _owned_teams(access, owner, f"teams:{access.org.id}:owned:{owner}:{term}", limit, page, term=term)


def _all_teams(access: OrgAccess, scope: str, limit: int, page: str | None, *,
               term: str) -> Listing[TeamView]:
    result = team_store.teams_page(access.org.id, limit, decode_cursor(scope, page), term or None)
    teams = [Team.from_item(item) for item in result.items]
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    count = team_store.teams_count(access.org.id, term) if term else access.org.team_count
    return Listing(items=team_views(access, teams), next_cursor=cursor, count=count)


def _owned_teams(access: OrgAccess, owner: str, scope: str, limit: int, page: str | None, *,
                 term: str) -> Listing[TeamView]:
    """GSI1 gives a page of the owner's memberships; one BatchGetItem brings the teams (the title filter
    applies to those, so a page may hold fewer items than `limit` and still have a next page)."""
    org_id = access.org.id
    start = open_page(scope, page)

    def read(start_key: dict[str, Any] | None, size: int
             ) -> tuple[list[TeamLink], list[Team], dict[str, Any] | None]:
        result = team_store.links_of_member_page(org_id, owner, size, start_key, owned_only=True)
        owned = [TeamLink.from_item(item) for item in result.items]
        found = items_by_key(team_store.team_key(org_id, link.team_id) for link in owned)
        teams = [Team.from_item(item) for item in
                 (found.get(ref(team_store.team_key(org_id, link.team_id))) for link in owned) if item]
        return owned, [team for team in teams if term in team.title.lower()], result.last_key

    owned, teams, last_key = read(start.start, limit)
    known = {link.team_id: link for link in owned} if owner == access.member.user_id else None
    if not term:
        # The owned teams are counted by one `Select=COUNT` Query of the memberships.
        count = team_store.owned_links_count(org_id, owner)
        return Listing(team_views(access, teams, known), next_page(scope, last_key), count)

    # A title filter applies to the teams themselves: the first page counts them with a pass over the
    # rest of the owner's teams, and its cursor carries the count.
    def matching(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        _, more, more_last = read(start_key, MAX_LIMIT)
        return len(more), more_last

    count = carried_count(start, (len(teams), last_key), matching)
    return Listing(team_views(access, teams, known), next_page(scope, last_key, count), count)


def create_team(access: OrgAccess, body: CreateTeam) -> TeamView:
    """A team with the listed organization members as team `member`s.

    The creating admin is not added unless listed: admins manage every team anyway, and a team meant for
    others should not silently gain its creator. Give someone the `owner` role through the team-member
    endpoints.
    """
    access.require("admin", "create teams")
    org_id = access.org.id
    user_ids = list(dict.fromkeys(body.members))
    members = member_store.get_members(org_id, user_ids)
    for user_id in user_ids:
        if user_id not in members:
            raise BadRequest(f"members: {user_id} is not a member of this organization")
    created = now_iso()
    team = Team(org_id=org_id, id=new_id(), title=body.title, created_at=created)
    links = [TeamLink(org_id, team.id, user_id, "member", created) for user_id in user_ids]
    team_store.create_team(team, links)
    return team_view(access, team, None)


def get_team(caller: Caller, org_id: str, team_id: str) -> TeamView:
    scoped, team = scoped_team(caller, org_id, team_id)
    link = scoped.link(team_id, caller.user_id)
    if not can_view(scoped.access, link):
        raise Forbidden("Guests can only see the teams they belong to")
    return team_view(scoped.access, team, link)


def rename_team(caller: Caller, org_id: str, team_id: str, body: UpdateTeam) -> TeamView:
    scoped, team = scoped_team(caller, org_id, team_id)
    link = scoped.link(team_id, caller.user_id)
    if not can_manage(scoped.access, link):
        raise Forbidden("Only organization admins and the team's owners can rename a team")
    team_store.rename_team(team, body.title)
    return team_view(scoped.access, team, link)


def delete_team(access: OrgAccess, team_id: str) -> None:
    """Deleting a team that does not exist succeeds (204), as every DELETE of the API does. The team's
    memberships and its grants on spaces and collections go with it (store.teams.delete_team)."""
    access.require("admin", "delete teams")
    team = team_store.get_team(access.org.id, team_id)
    if team is not None:
        team_store.delete_team(team)
