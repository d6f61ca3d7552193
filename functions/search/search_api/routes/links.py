"""GET /spaces/{spaceId}/links: every link of the space's current revision, with its status."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.content_locations import ContentReferenceUsageList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.links import links_to_wire
from bindery.domain import links as domain

router = Router()
Status = Literal["ok", "broken", "in-app"]


@router.get("/spaces/<spaceId>/links")
def list_space_links(
    spaceId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    status: Annotated[Status | None, Query()] = None,
) -> ContentReferenceUsageList:
    found = domain.list_links(who, spaceId, None, status=status, limit=page_limit(limit), page=page)
    return links_to_wire(found)
