"""…/permissions: invite users and teams to a space or a collection, list their grants, change and remove
them (docs/permissions.md). One router, mounted under both `/spaces/{spaceId}` and
`/collections/{collectionId}`: the target comes from the path (spaces_api.target). Each route is written
out, so that grep finds its path; the listings of users' and teams' grants share `_list`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from bindery.api.dependencies import page_limit
from bindery.api.responses.content_permissions import (
    TeamContentPermission,
    TeamContentPermissionList,
    UserContentPermission,
    UserContentPermissionList,
)
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.content_permissions import team_permission_to_wire, user_permission_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.access import grant_listings
from bindery.domain.access import grants as domain
from bindery.domain.access.auth import Caller
from bindery.domain.access.grant_listings import TeamGrantView, UserGrantView
from bindery.platform.pagination import Listing
from bindery.requests.grants import InviteUsersAndTeams, UpdatePermission
from spaces_api.target import ContentRef, permission_target

router = Router()
View = TypeVar("View", UserGrantView, TeamGrantView)
Shown = TypeVar("Shown", UserContentPermission, TeamContentPermission)
Shelf = TypeVar("Shelf", UserContentPermissionList, TeamContentPermissionList)
Target = Annotated[ContentRef, Depends(permission_target)]
Update = Annotated[UpdatePermission, Body()]
# The reference spec answers 205 when a grant was removed and 204 when there was none to remove.
REMOVED: dict[int, OpenAPIResponse] = {204: {"description": "There was no such grant"},
                                       205: {"description": "The grant was removed"}}


def _removed(done: bool) -> Response[str]:
    return Response(status_code=205 if done else 204, body="")


@router.post("/spaces/<spaceId>/permissions",
             status_code=204, responses={204: {"description": "Users and teams invited"}})
@router.post("/collections/<collectionId>/permissions",
             status_code=204, responses={204: {"description": "Users and teams invited"}})
def invite(who: Who, target: Target, body: Annotated[InviteUsersAndTeams, Body()]) -> Response[str]:
    domain.invite(who, target.kind, target.id, body)
    return Response(status_code=204, body="")


def _list(who: Who, target: ContentRef, *,
          listing: Callable[[Caller, str, str, int, str | None], Listing[View]],
          shape: Callable[[View], Shown], shelf: type[Shelf], page: PageCursor, limit: PageLimit) -> Shelf:
    found = listing(who, target.kind, target.id, page_limit(limit), page)
    return list_page(shelf, found, shape)


@router.get("/spaces/<spaceId>/permissions/users")
@router.get("/collections/<collectionId>/permissions/users")
def list_users(who: Who, target: Target, page: PageCursor = None,
               limit: PageLimit = None) -> UserContentPermissionList:
    return _list(who, target, listing=grant_listings.list_users, shape=user_permission_to_wire,
                 shelf=UserContentPermissionList, page=page, limit=limit)


@router.patch("/spaces/<spaceId>/permissions/users/<userId>",
              status_code=204, responses={204: {"description": "Permission updated"}})
@router.patch("/collections/<collectionId>/permissions/users/<userId>",
              status_code=204, responses={204: {"description": "Permission updated"}})
def update_user(userId: str, who: Who, target: Target, body: Update) -> Response[str]:
    domain.set_role(who, target.kind, target.id, "user", userId, role=body.role)
    return Response(status_code=204, body="")


@router.delete("/spaces/<spaceId>/permissions/users/<userId>", status_code=204, responses=REMOVED)
@router.delete("/collections/<collectionId>/permissions/users/<userId>", status_code=204, responses=REMOVED)
def remove_user(userId: str, who: Who, target: Target) -> Response[str]:
    return _removed(domain.remove(who, target.kind, target.id, "user", userId))


@router.get("/spaces/<spaceId>/permissions/teams")
@router.get("/collections/<collectionId>/permissions/teams")
def list_teams(who: Who, target: Target, page: PageCursor = None,
               limit: PageLimit = None) -> TeamContentPermissionList:
    return _list(who, target, listing=grant_listings.list_teams, shape=team_permission_to_wire,
                 shelf=TeamContentPermissionList, page=page, limit=limit)


@router.patch("/spaces/<spaceId>/permissions/teams/<teamId>",
              status_code=204, responses={204: {"description": "Permission updated"}})
@router.patch("/collections/<collectionId>/permissions/teams/<teamId>",
              status_code=204, responses={204: {"description": "Permission updated"}})
def update_team(teamId: str, who: Who, target: Target, body: Update) -> Response[str]:
    domain.set_role(who, target.kind, target.id, "team", teamId, role=body.role)
    return Response(status_code=204, body="")


@router.delete("/spaces/<spaceId>/permissions/teams/<teamId>", status_code=204, responses=REMOVED)
@router.delete("/collections/<collectionId>/permissions/teams/<teamId>", status_code=204, responses=REMOVED)
def remove_team(teamId: str, who: Who, target: Target) -> Response[str]:
    return _removed(domain.remove(who, target.kind, target.id, "team", teamId))
