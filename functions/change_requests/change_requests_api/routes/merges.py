"""CR/update, CR/merge, CR/changes and CR/pdf."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.route_params import Who
from bindery.api.wire.models.change_requests import (
    ChangeRequestChanges,
    ChangeRequestMerged,
    ChangeRequestPdf,
    ChangeRequestUpdated,
)
from bindery.domain.change_requests import exports, merges

router = Router()


@router.post("/update")
def update_change_request(
    spaceId: str, changeRequestId: str, who: Who,  # noqa: N803
) -> ChangeRequestUpdated:
    return ChangeRequestUpdated.model_validate(merges.update_change_request(who, spaceId, changeRequestId))


@router.post("/merge")
def merge_change_request(
    spaceId: str, changeRequestId: str, who: Who,  # noqa: N803
) -> ChangeRequestMerged:
    return ChangeRequestMerged.model_validate(merges.merge_change_request(who, spaceId, changeRequestId))


@router.get("/changes")
def list_changes(
    spaceId: str, changeRequestId: str, who: Who,  # noqa: N803
    limit: Annotated[int | None, Query(ge=0, le=1000)] = None,
) -> ChangeRequestChanges:
    wire = exports.list_changes(who, spaceId, changeRequestId, limit=limit)
    return ChangeRequestChanges.model_validate(wire)


@router.get("/pdf")
def get_pdf(
    spaceId: str, changeRequestId: str, who: Who, *,  # noqa: N803
    only: Annotated[bool, Query()] = False,
    page: Annotated[str | None, Query(min_length=1)] = None,
) -> ChangeRequestPdf:
    wire = exports.render(who, spaceId, changeRequestId, only=only, page=page)
    return ChangeRequestPdf.model_validate(wire)
