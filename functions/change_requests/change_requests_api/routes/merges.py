"""CR/update, CR/merge, CR/changes and CR/pdf."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.responses.change_requests import (
    ChangeRequestChanges,
    ChangeRequestMerged,
    ChangeRequestPdf,
    ChangeRequestUpdated,
)
from bindery.api.route_params import Who
from bindery.api.wire.change_request_changes import changes_to_wire
from bindery.api.wire.change_requests import merged_to_wire, pdf_to_wire, updated_to_wire
from bindery.domain.change_requests import exports, merges

router = Router()


@router.post("/spaces/<spaceId>/change-requests/<changeRequestId>/update")
def update_change_request(
    spaceId: str, changeRequestId: str, who: Who,
) -> ChangeRequestUpdated:
    updated = merges.update_change_request(who, spaceId, changeRequestId)
    return updated_to_wire(updated.revision, updated.result)


@router.post("/spaces/<spaceId>/change-requests/<changeRequestId>/merge")
def merge_change_request(
    spaceId: str, changeRequestId: str, who: Who,
) -> ChangeRequestMerged:
    merged = merges.merge_change_request(who, spaceId, changeRequestId)
    return merged_to_wire(merged.revision, merged.result)


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/changes")
def list_changes(
    spaceId: str, changeRequestId: str, who: Who,
    limit: Annotated[int | None, Query(ge=0, le=1000)] = None,
) -> ChangeRequestChanges:
    found = exports.list_changes(who, spaceId, changeRequestId, limit=limit)
    return changes_to_wire(found.space_id, found.changes, more=found.more, conflicts=found.conflicts)


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/pdf")
def get_pdf(
    spaceId: str, changeRequestId: str, who: Who, *,
    only: Annotated[bool, Query()] = False,
    page: Annotated[str | None, Query(min_length=1)] = None,
) -> ChangeRequestPdf:
    return pdf_to_wire(exports.render(who, spaceId, changeRequestId, only=only, page=page))
