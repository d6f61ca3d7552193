"""`POST CR/content`: an ordered batch of changes applied as one new revision of the change request
(domain.change_requests.edits). The change request's content is read as any revision's is
(content_api.routes.reads, declared under `CR/content` too)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.responses.content import ContentUpdateResult
from bindery.api.route_params import Who
from bindery.api.wire.change_requests import change_request_to_wire
from bindery.api.wire.content import content_updated_to_wire
from bindery.domain.change_requests import edits
from bindery.requests.change_requests import UpdateContent

router = Router()


@router.post("/spaces/<spaceId>/change-requests/<changeRequestId>/content")
def update_content(
    spaceId: str, changeRequestId: str, who: Who,
    body: Annotated[UpdateContent, Body()], *,
    compat: Annotated[bool, Query()] = True,
) -> ContentUpdateResult:
    done = edits.update_content(who, spaceId, changeRequestId, body, compat=compat)
    change_request = change_request_to_wire(done.change_request)
    if done.compat:
        return ContentUpdateResult(change_request)
    updated = done.change_request.change_request
    return ContentUpdateResult(content_updated_to_wire(
        change_request, space_id=spaceId, revision_id=updated.revision, touched=done.touched,
        refs=done.refs, inserted_files=done.inserted_files))
