"""SPACE/search and ORG/search."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.models.search import SearchPageResultList, SearchSpaceResultList
from bindery.domain import search as domain

router = Router()


@router.get("/spaces/<spaceId>/search")
def search_space(
    spaceId: str, who: Who, *,  # noqa: N803
    query: Annotated[str, Query(max_length=domain.MAX_QUERY)],
    page: PageCursor = None,
    limit: PageLimit = None,
) -> SearchPageResultList:
    wire = domain.search_space(who, spaceId, query, limit=page_limit(limit), page=page).to_wire()
    return SearchPageResultList.model_validate(wire)


@router.get("/orgs/<organizationId>/search")
def search_organization(
    organizationId: str, who: Who, *,  # noqa: N803
    query: Annotated[str, Query(max_length=domain.MAX_QUERY)],
    page: PageCursor = None,
    limit: PageLimit = None,
) -> SearchSpaceResultList:
    # No `organization` dependency: membership is read in the same BatchGetItem as the page's spaces.
    wire = domain.search_organization(who, organizationId, query, limit=page_limit(limit),
                                      page=page).to_wire()
    return SearchSpaceResultList.model_validate(wire)
