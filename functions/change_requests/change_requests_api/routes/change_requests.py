"""SPACE/change-requests: list and create; one change request (by id or number): read, change."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.change_requests import ChangeRequest, ChangeRequestList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.change_requests import change_request_location, change_request_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.change_requests import listing
from bindery.domain.change_requests import records as domain
from bindery.requests.change_requests import CreateChangeRequest, UpdateChangeRequest
from change_requests_api.listing_query import ListingQuery, with_listing_query

router = Router()


@router.get("/spaces/<spaceId>/change-requests")
@with_listing_query
def list_change_requests(
    spaceId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    query: ListingQuery,
) -> ChangeRequestList:
    found = listing.list_for_space(who, spaceId, query.filters(), limit=page_limit(limit), page=page)
    return list_page(ChangeRequestList, found, change_request_to_wire)


@router.post("/spaces/<spaceId>/change-requests",
             status_code=201, responses={201: {"description": "Change request created"}})
def create_change_request(
    spaceId: str, who: Who,
    body: Annotated[CreateChangeRequest | None, Body()] = None,
) -> Response[ChangeRequest]:
    created = domain.create_change_request(who, spaceId, body or CreateChangeRequest())
    return Response(status_code=201, content_type=content_types.APPLICATION_JSON,
                    body=change_request_to_wire(created),
                    headers={"Location": change_request_location(created.change_request)})


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>")
def get_change_request(
    spaceId: str, changeRequestId: str, who: Who,
) -> ChangeRequest:
    return change_request_to_wire(domain.get_change_request(who, spaceId, changeRequestId))


@router.patch("/spaces/<spaceId>/change-requests/<changeRequestId>")
def update_change_request(
    spaceId: str, changeRequestId: str, who: Who,
    body: Annotated[UpdateChangeRequest, Body()],
) -> ChangeRequest:
    return change_request_to_wire(domain.update_change_request(who, spaceId, changeRequestId, body))
