"""What only a given revision answers (`/spaces/{spaceId}/revisions/{revisionId}/…`): a page's document and
a reusable content's document, alone. The reads every revision shares — current, given or a change
request's — are content_api.routes.reads."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.responses.content import JSONDocument
from bindery.api.route_params import Who
from bindery.api.wire.content import document_to_wire
from bindery.domain import content_reads as reads
from bindery.requests.content import Evaluated

router = Router()


@router.get("/spaces/<spaceId>/revisions/<revisionId>/page/<pageId>/document")
def get_page_document_in_revision(
    spaceId: str, revisionId: str, pageId: str, who: Who, *,
    evaluated: Annotated[Evaluated, Query()] = False,
) -> JSONDocument:
    return document_to_wire(reads.get_page_document(who, spaceId, revisionId, pageId, evaluated=evaluated))


@router.get("/spaces/<spaceId>/revisions/<revisionId>/reusable-contents/<reusableContentId>/document")
def get_reusable_content_document_in_revision(
    spaceId: str, revisionId: str, reusableContentId: str,
    who: Who, *,
    evaluated: Annotated[Evaluated, Query()] = False,
) -> JSONDocument:
    return document_to_wire(reads.get_reusable_content_document(who, spaceId, revisionId, reusableContentId,
                                                                evaluated=evaluated))
