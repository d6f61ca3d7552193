"""ORG/members: list, read, change role, remove (or leave), mark as SSO, and a member's teams and spaces."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.content_permissions import MemberContentPermissionList
from bindery.api.responses.users import (
    MemberTeam,
    MemberTeamList,
    OrganizationMember,
    OrganizationMemberList,
)
from bindery.api.route_params import MemberOf, PageCursor, PageLimit, Who
from bindery.api.wire.content_permissions import member_space_to_wire
from bindery.api.wire.lists import list_page
from bindery.api.wire.teams import member_team_to_wire
from bindery.api.wire.users import member_model
from bindery.domain import members as domain
from bindery.domain.access import grant_listings as grants_domain
from bindery.domain.members import MemberTeamView
from bindery.requests.common import RoleValue
from bindery.requests.members import UpdateMember

router = Router()


def _member_team(view: MemberTeamView) -> MemberTeam:
    return member_team_to_wire(view.team.team, admin=view.team.can_manage, view=view.team.can_view,
                               role=view.role)


@router.get("/orgs/<organizationId>/members")
def list_members(
    access: MemberOf, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    order: Annotated[Literal["asc", "desc"], Query()] = "desc",
    role: Annotated[RoleValue | Literal["guest"] | None, Query()] = None,
    search: Annotated[str | None, Query(max_length=256)] = None,
    sort: Annotated[Literal["joinedAt", "lastSeenAt"], Query()] = "joinedAt",
) -> OrganizationMemberList:
    found = domain.list_members(access, limit=page_limit(limit), page=page, order=order, sort=sort,
                                role=role, search=search)
    return list_page(OrganizationMemberList, found, member_model)


@router.get("/orgs/<organizationId>/members/<userId>")
def get_member(organizationId: str, userId: str, who: Who) -> OrganizationMember:
    return member_model(domain.get_member(who, organizationId, userId))


@router.patch("/orgs/<organizationId>/members/<userId>")
def update_member(
    organizationId: str, userId: str, who: Who,
    body: Annotated[UpdateMember, Body()],
) -> OrganizationMember:
    return member_model(domain.change_role(who, organizationId, userId, body.role))


@router.delete("/orgs/<organizationId>/members/<userId>", status_code=204)
def remove_member(organizationId: str, userId: str, who: Who) -> Response[str]:
    domain.remove_member(who, organizationId, userId)
    return Response(status_code=204, body="")


@router.post("/orgs/<organizationId>/members/<userId>/sso")
def set_sso(organizationId: str, userId: str, who: Who) -> OrganizationMember:
    return member_model(domain.set_sso(who, organizationId, userId))


@router.get("/orgs/<organizationId>/members/<userId>/teams")
def member_teams(
    organizationId: str, userId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    title: Annotated[str | None, Query(max_length=64)] = None,
) -> MemberTeamList:
    found = domain.member_teams(who, organizationId, userId, limit=page_limit(limit), page=page, title=title)
    return list_page(MemberTeamList, found, _member_team)


@router.get("/orgs/<organizationId>/members/<userId>/spaces")
def member_spaces(
    organizationId: str, userId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    order: Annotated[Literal["asc", "desc"], Query()] = "desc",
) -> MemberContentPermissionList:
    found = grants_domain.member_spaces(who, organizationId, userId, limit=page_limit(limit), page=page,
                                        order=order)
    return list_page(MemberContentPermissionList, found,
                     lambda view: member_space_to_wire(view.permission, view.space, view.role))
