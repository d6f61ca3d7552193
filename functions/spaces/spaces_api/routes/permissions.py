"""…/permissions: invite users and teams to a space or a collection, list their grants, change and remove
them (docs/permissions.md). One router, mounted under both `/spaces/{spaceId}` and
`/collections/{collectionId}`: the target comes from the path (spaces_api.target). The grants of users
and of teams are one set of route functions (`_declare`), declared for each with its names and shapes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Generic, Literal, TypeVar

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.route_signatures import declared_as
from bindery.api.wire.models.spaces import (
    TeamContentPermission,
    TeamContentPermissionList,
    UserContentPermission,
    UserContentPermissionList,
)
from bindery.auth import Caller
from bindery.domain.access import grant_listings
from bindery.domain.access import grants as domain
from bindery.domain.access.grant_listings import TeamGrantView, UserGrantView
from bindery.pagination import Listing
from bindery.requests.grants import InviteUsersAndTeams, UpdatePermission
from spaces_api import shapes
from spaces_api.target import ContentRef, permission_target

router = Router()
View = TypeVar("View", UserGrantView, TeamGrantView)
Shown = TypeVar("Shown", UserContentPermission, TeamContentPermission)
Shelf = TypeVar("Shelf", UserContentPermissionList, TeamContentPermissionList)
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


@dataclass(frozen=True)
class Grantee(Generic[View, Shown, Shelf]):
    """Users or teams, as the routes of their grants name them."""

    principal: Literal["user", "team"]
    id_param: str  # the path variable of one grantee: /users/{userId}
    listing: Callable[[Caller, str, str, int, str | None], Listing[View]]
    shape: Callable[[View], Shown]
    shelf: type[Shelf]  # a page of grants on the wire


def _declare(grantee: Grantee[View, Shown, Shelf]) -> None:
    """The grants of users or of teams: list, change one's role, remove one."""
    principal = grantee.principal
    one = f"/{principal}s/<{grantee.id_param}>"
    path_id = {"principal_id": grantee.id_param}

    def list_grants(who: Who, target: Target, page: PageCursor = None, limit: PageLimit = None) -> Shelf:
        found = grantee.listing(who, target.kind, target.id, page_limit(limit), page)
        return grantee.shelf.model_validate(found.map(grantee.shape).to_wire())

    def update(principal_id: str, who: Who, target: Target,
               body: Annotated[UpdatePermission, Body()]) -> Response[str]:
        domain.set_role(who, target.kind, target.id, principal, principal_id, role=body.role)
        return Response(status_code=204, body="")

    def remove(principal_id: str, who: Who, target: Target) -> Response[str]:
        return _removed(domain.remove(who, target.kind, target.id, principal, principal_id))

    router.get(f"/{principal}s")(declared_as(list_grants, name=f"list_{principal}s",
                                             types={"return": grantee.shelf}))
    router.patch(one, status_code=204, responses={204: {"description": "Permission updated"}})(
        declared_as(update, name=f"update_{principal}", renamed=path_id))
    router.delete(one, status_code=204, responses=REMOVED)(
        declared_as(remove, name=f"remove_{principal}", renamed=path_id))


_declare(Grantee("user", "userId", grant_listings.list_users, shapes.user_grant, UserContentPermissionList))
_declare(Grantee("team", "teamId", grant_listings.list_teams, shapes.team_grant, TeamContentPermissionList))
