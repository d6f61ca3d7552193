"""ORG/teams/{teamId}/members: list, update in bulk, add (or change the role of) one, remove one."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.users import OrganizationTeamMember, OrganizationTeamMemberList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.teams import team_member_to_wire
from bindery.domain import team_members as domain
from bindery.domain.team_members import TeamMembership
from bindery.requests.members import AddTeamMember, UpdateTeamMembers

router = Router()


def _wire(membership: TeamMembership) -> OrganizationTeamMember:
    return team_member_to_wire(membership.member, membership.link)


@router.get("/orgs/<organizationId>/teams/<teamId>/members")
def list_team_members(
    organizationId: str, teamId: str, who: Who,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> OrganizationTeamMemberList:
    found = domain.list_team_members(who, organizationId, teamId, page_limit(limit), page)
    return list_page(OrganizationTeamMemberList, found, _wire)


@router.put("/orgs/<organizationId>/teams/<teamId>/members", status_code=204)
def update_team_members(
    organizationId: str, teamId: str, who: Who,
    body: Annotated[UpdateTeamMembers, Body()],
) -> Response[str]:
    domain.update_team_members(who, organizationId, teamId, body)
    return Response(status_code=204, body="")


@router.put("/orgs/<organizationId>/teams/<teamId>/members/<userId>", status_code=204)
def add_team_member(
    organizationId: str, teamId: str, userId: str, who: Who,
    body: Annotated[AddTeamMember | None, Body()] = None,
) -> Response[str]:
    domain.add_team_member(who, organizationId, teamId, userId, body.role if body else None)
    return Response(status_code=204, body="")


@router.delete("/orgs/<organizationId>/teams/<teamId>/members/<userId>", status_code=204)
def remove_team_member(
    organizationId: str, teamId: str, userId: str, who: Who,
) -> Response[str]:
    domain.remove_team_member(who, organizationId, teamId, userId)
    return Response(status_code=204, body="")
