"""A page's links and a file's backlinks, in the space's current revision (the change-request variants
call the same domain functions with the change request's revision)."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.content_locations import ContentLocationList, ContentReferenceUsageList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.links import backlinks_to_wire, links_to_wire
from bindery.domain import links as domain

router = Router()
Status = Literal["ok", "broken", "in-app"]


@router.get("/spaces/<spaceId>/content/page/<pageId>/links")
def list_page_links(
    spaceId: str, pageId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    status: Annotated[Status | None, Query()] = None,
) -> ContentReferenceUsageList:
    return links_to_wire(domain.list_links(who, spaceId, None, page_id=pageId, status=status,
                                      limit=page_limit(limit), page=page))


@router.get("/spaces/<spaceId>/content/files/<fileId>/backlinks")
def list_file_backlinks(
    spaceId: str, fileId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> ContentLocationList:
    return backlinks_to_wire(domain.list_file_backlinks(who, spaceId, None, fileId, limit=page_limit(limit),
                                                   page=page))
