"""ORG/spaces: list the organization's spaces the caller can see, and create one."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.spaces import Space, SpaceList
from bindery.api.route_params import MemberOf, PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.spaces import space_model
from bindery.domain.spaces import listing
from bindery.domain.spaces import records as domain
from bindery.requests.spaces import CreateSpace

router = Router()


@router.get("/orgs/<organizationId>/spaces")
def list_spaces(
    organizationId: str, who: Who,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> SpaceList:
    # No `organization` dependency: membership is read in the same BatchGetItem as the page's collections.
    found = listing.list_spaces(who, organizationId, limit=page_limit(limit), page=page)
    return list_page(SpaceList, found, space_model)


@router.post("/orgs/<organizationId>/spaces",
             status_code=201, responses={201: {"description": "Space created"}})
def create_space(
    access: MemberOf,
    body: Annotated[CreateSpace | None, Body()] = None,
) -> Space:
    # The spec's request body is optional: no body creates an untitled space at the top level.
    return space_model(domain.create_space(access, body or CreateSpace()))
