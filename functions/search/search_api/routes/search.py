"""SPACE/search and ORG/search."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.search import SearchPageResultList, SearchSpaceResult, SearchSpaceResultList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.search import hits_to_json, space_hits_to_wire
from bindery.domain import search as domain
from bindery.domain.search import SpaceHits

router = Router()

# A space search answers its JSON ready-made (bindery.api.wire.search.hits_to_json says why): the route
# declares the model it was validated as here, for the OpenAPI document, instead of returning it.
RESULTS = {200: {"description": "Successful Response",
                 "content": {content_types.APPLICATION_JSON: {"model": SearchPageResultList}}}}


def _space(found: SpaceHits) -> SearchSpaceResult:
    return space_hits_to_wire(found.space_id, found.title, revision_id=found.revision_id, hits=found.hits)


@router.get("/spaces/<spaceId>/search", responses=RESULTS)  # type: ignore[arg-type]
def search_space(
    spaceId: str, who: Who, *,
    query: Annotated[str, Query(max_length=domain.MAX_QUERY)],
    page: PageCursor = None,
    limit: PageLimit = None,
) -> Response[str]:
    found = domain.search_space(who, spaceId, query, limit=page_limit(limit), page=page)
    return Response(200, content_types.APPLICATION_JSON,
                    hits_to_json(found.hits, space_id=found.space_id, revision_id=found.revision_id))


@router.get("/orgs/<organizationId>/search")
def search_organization(
    organizationId: str, who: Who, *,
    query: Annotated[str, Query(max_length=domain.MAX_QUERY)],
    page: PageCursor = None,
    limit: PageLimit = None,
) -> SearchSpaceResultList:
    # No `organization` dependency: membership is read in the same BatchGetItem as the page's spaces.
    found = domain.search_organization(who, organizationId, query, limit=page_limit(limit), page=page)
    return list_page(SearchSpaceResultList, found, _space)
