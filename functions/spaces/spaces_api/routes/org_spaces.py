"""ORG/spaces: list the organization's spaces the caller can see, and create one."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.auth import Caller
from bindery.dependencies import caller, organization, page_limit
from bindery.domain import space_listing
from bindery.domain import spaces as domain
from bindery.domain.access import OrgAccess
from bindery.pagination import MAX_LIMIT
from bindery.schemas.spaces import CreateSpace

router = Router()


@router.get("")
def list_spaces(
    organizationId: str, who: Annotated[Caller, Depends(caller)],  # noqa: N803
    page: Annotated[str | None, Query()] = None,
    limit: Annotated[float | None, Query(ge=0, le=MAX_LIMIT)] = None,
) -> dict[str, Any]:
    # No `organization` dependency: membership is read in the same BatchGetItem as the page's collections.
    return space_listing.list_spaces(who, organizationId, limit=page_limit(limit), page=page).to_wire()


@router.post("", status_code=201, responses={201: {"description": "Space created"}})
def create_space(
    access: Annotated[OrgAccess, Depends(organization)],
    body: Annotated[CreateSpace | None, Body()] = None,
) -> dict[str, Any]:
    # The spec's request body is optional: no body creates an untitled space at the top level.
    return domain.create_space(access, body or CreateSpace())
