"""SPACE/change-requests: list and create; one change request (by id or number): read, change."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.schemas.change_requests import CreateChangeRequest, Status, UpdateChangeRequest
from bindery.api.wire.models.change_requests import ChangeRequest, ChangeRequestList
from bindery.domain.change_requests import listing
from bindery.domain.change_requests import records as domain

router = Router()


@router.get("/change-requests")
def list_change_requests(
    spaceId: str, who: Who, *,  # noqa: N803
    page: PageCursor = None,
    limit: PageLimit = None,
    status: Annotated[Status, Query()] = "open",
    creator: Annotated[str | None, Query(min_length=1)] = None,
    contributor: Annotated[str | None, Query(min_length=1)] = None,
    requestedReviewer: Annotated[str | None, Query(min_length=1)] = None,  # noqa: N803
    conversationsIssuesCluster: Annotated[str | None, Query(min_length=1)] = None,  # noqa: N803
) -> ChangeRequestList:
    filters = listing.Filters(status, creator, contributor, requestedReviewer, conversationsIssuesCluster)
    wire = listing.list_for_space(who, spaceId, filters, limit=page_limit(limit), page=page).to_wire()
    return ChangeRequestList.model_validate(wire)


@router.post("/change-requests", status_code=201, responses={201: {"description": "Change request created"}})
def create_change_request(
    spaceId: str, who: Who,  # noqa: N803
    body: Annotated[CreateChangeRequest | None, Body()] = None,
) -> Response[ChangeRequest]:
    created = domain.create_change_request(who, spaceId, body or CreateChangeRequest())
    shown = ChangeRequest.model_validate(created)
    return Response(status_code=201, content_type=content_types.APPLICATION_JSON, body=shown,
                    headers={"Location": created["urls"]["location"]})


@router.get("/change-requests/<changeRequestId>")
def get_change_request(
    spaceId: str, changeRequestId: str, who: Who,  # noqa: N803
) -> ChangeRequest:
    return ChangeRequest.model_validate(domain.get_change_request(who, spaceId, changeRequestId))


@router.patch("/change-requests/<changeRequestId>")
def update_change_request(
    spaceId: str, changeRequestId: str, who: Who,  # noqa: N803
    body: Annotated[UpdateChangeRequest, Body()],
) -> ChangeRequest:
    return ChangeRequest.model_validate(domain.update_change_request(who, spaceId, changeRequestId, body))
