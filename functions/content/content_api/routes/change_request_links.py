"""A change request's links (`GET CR/content/page/{pageId}/links`) and a file's backlinks
(`GET CR/content/files/{fileId}/backlinks`): checked in the change request's revision, each location
naming the change request (`versionContext`), and `stats.broken.changeRequest` counting the broken links
the change request adds to its base."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.change_requests import ChangeRequest
from bindery.api.responses.content_locations import ContentLocationList, ContentReferenceUsageList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.change_requests import change_request_to_wire
from bindery.api.wire.links import backlinks_to_wire, links_to_wire
from bindery.domain import links as domain
from bindery.domain.access.auth import Caller
from bindery.domain.change_requests import records
from bindery.domain.change_requests.records import change_request_view

router = Router()
Status = Literal["ok", "broken", "in-app"]


def _context(who: Caller, space_id: str, change_request_id: str) -> tuple[str, str, ChangeRequest]:
    """The change request's revision, its base, and the change request (each location names it)."""
    opened = records.open_change_request(who, space_id, change_request_id)
    shown = change_request_to_wire(change_request_view(opened.change_request, opened.space,
                                                           opened.access.member))
    return opened.change_request.revision, opened.change_request.base, shown


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/page/<pageId>/links")
def list_page_links(
    spaceId: str, changeRequestId: str, pageId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    status: Annotated[Status | None, Query()] = None,
) -> ContentReferenceUsageList:
    revision, base, change_request = _context(who, spaceId, changeRequestId)
    found = domain.list_links(who, spaceId, revision, page_id=pageId, status=status, limit=page_limit(limit),
                              page=page, base_revision_id=base)
    return links_to_wire(found, change_request)


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/files/<fileId>/backlinks")
def list_file_backlinks(
    spaceId: str, changeRequestId: str, fileId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> ContentLocationList:
    revision, _base, change_request = _context(who, spaceId, changeRequestId)
    found = domain.list_file_backlinks(who, spaceId, revision, fileId, limit=page_limit(limit), page=page)
    return backlinks_to_wire(found, change_request)
