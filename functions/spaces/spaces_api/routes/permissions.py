"""…/permissions: invite users and teams to a space or a collection, list their grants, change and remove
them (docs/permissions.md). One router, mounted under both `/spaces/{spaceId}` and
`/collections/{collectionId}`: the target comes from the path (spaces_api.target)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.schemas.grants import InviteUsersAndTeams, UpdatePermission
from bindery.api.wire.models.spaces import TeamContentPermissionList, UserContentPermissionList
from bindery.domain.access import grant_listings
from bindery.domain.access import grants as domain
from spaces_api import shapes
from spaces_api.target import ContentRef, permission_target

router = Router()
Target = Annotated[ContentRef, Depends(permission_target)]
# The reference spec answers 205 when a grant was removed and 204 when there was none to remove.
REMOVED: dict[int, OpenAPIResponse] = {204: {"description": "There was no such grant"},
                                       205: {"description": "The grant was removed"}}


def _removed(done: bool) -> Response[str]:
    return Response(status_code=205 if done else 204, body="")


@router.post("", status_code=204, responses={204: {"description": "Users and teams invited"}})
def invite(who: Who, target: Target, body: Annotated[InviteUsersAndTeams, Body()]) -> Response[str]:
    domain.invite(who, target.kind, target.id, body)
    return Response(status_code=204, body="")


@router.get("/users")
def list_users(
    who: Who, target: Target,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> UserContentPermissionList:
    found = grant_listings.list_users(who, target.kind, target.id, page_limit(limit), page)
    return UserContentPermissionList.model_validate(found.map(shapes.user_grant).to_wire())


@router.patch("/users/<userId>", status_code=204, responses={204: {"description": "Permission updated"}})
def update_user(
    userId: str, who: Who, target: Target,  # noqa: N803
    body: Annotated[UpdatePermission, Body()],
) -> Response[str]:
    domain.set_role(who, target.kind, target.id, "user", userId, role=body.role)
    return Response(status_code=204, body="")


@router.delete("/users/<userId>", status_code=204, responses=REMOVED)
def remove_user(userId: str, who: Who, target: Target) -> Response[str]:  # noqa: N803
    return _removed(domain.remove(who, target.kind, target.id, "user", userId))


@router.get("/teams")
def list_teams(
    who: Who, target: Target,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> TeamContentPermissionList:
    found = grant_listings.list_teams(who, target.kind, target.id, page_limit(limit), page)
    return TeamContentPermissionList.model_validate(found.map(shapes.team_grant).to_wire())


@router.patch("/teams/<teamId>", status_code=204, responses={204: {"description": "Permission updated"}})
def update_team(
    teamId: str, who: Who, target: Target,  # noqa: N803
    body: Annotated[UpdatePermission, Body()],
) -> Response[str]:
    domain.set_role(who, target.kind, target.id, "team", teamId, role=body.role)
    return Response(status_code=204, body="")


@router.delete("/teams/<teamId>", status_code=204, responses=REMOVED)
def remove_team(teamId: str, who: Who, target: Target) -> Response[str]:  # noqa: N803
    return _removed(domain.remove(who, target.kind, target.id, "team", teamId))
