"""ORG/teams: list, create, read, rename, delete."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.users import OrganizationTeam, OrganizationTeamList
from bindery.api.route_params import MemberOf, PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.teams import team_model
from bindery.domain import teams as domain
from bindery.domain.teams import TeamView
from bindery.requests.members import CreateTeam, UpdateTeam

router = Router()


def _wire(view: TeamView) -> OrganizationTeam:
    return team_model(view.team, admin=view.can_manage, view=view.can_view)


@router.get("/orgs/<organizationId>/teams")
def list_teams(
    access: MemberOf,
    page: PageCursor = None,
    limit: PageLimit = None,
    owner: Annotated[str | None, Query(max_length=128)] = None,
    title: Annotated[str | None, Query(max_length=64)] = None,
) -> OrganizationTeamList:
    found = domain.list_teams(access, limit=page_limit(limit), page=page, owner=owner, title=title)
    return list_page(OrganizationTeamList, found, _wire)


@router.put("/orgs/<organizationId>/teams", status_code=201)
def create_team(
    access: MemberOf, body: Annotated[CreateTeam, Body()],
) -> OrganizationTeam:
    return _wire(domain.create_team(access, body))


@router.get("/orgs/<organizationId>/teams/<teamId>")
def get_team(organizationId: str, teamId: str, who: Who) -> OrganizationTeam:
    return _wire(domain.get_team(who, organizationId, teamId))


@router.patch("/orgs/<organizationId>/teams/<teamId>")
def rename_team(
    organizationId: str, teamId: str, who: Who,
    body: Annotated[UpdateTeam, Body()],
) -> OrganizationTeam:
    return _wire(domain.rename_team(who, organizationId, teamId, body))


@router.delete("/orgs/<organizationId>/teams/<teamId>", status_code=204)
def delete_team(teamId: str, access: MemberOf) -> Response[str]:
    domain.delete_team(access, teamId)
    return Response(status_code=204, body="")
