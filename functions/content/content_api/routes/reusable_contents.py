"""Reusable contents of the current revision or of a given one, and their documents."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.route_params import Who
from bindery.api.schemas.content import Evaluated
from bindery.api.wire.models.content import JSONDocument, RevisionReusableContent
from bindery.domain import content_reads as reads

router = Router()


@router.get("/content/reusable-contents/<reusableContentId>")
def get_reusable_content(
    spaceId: str, reusableContentId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionReusableContent:
    wire = reads.get_reusable_content(who, spaceId, None, reusableContentId, metadata=metadata)
    return RevisionReusableContent.model_validate(wire)


@router.get("/revisions/<revisionId>/reusable-contents/<reusableContentId>")
def get_reusable_content_in_revision(
    spaceId: str, revisionId: str, reusableContentId: str,  # noqa: N803
    who: Who, *,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionReusableContent:
    wire = reads.get_reusable_content(who, spaceId, revisionId, reusableContentId, metadata=metadata)
    return RevisionReusableContent.model_validate(wire)


@router.get("/revisions/<revisionId>/reusable-contents/<reusableContentId>/document")
def get_reusable_content_document_in_revision(
    spaceId: str, revisionId: str, reusableContentId: str,  # noqa: N803
    who: Who, *,
    evaluated: Annotated[Evaluated, Query()] = False,
) -> JSONDocument:
    wire = dict(reads.get_reusable_content_document(who, spaceId, revisionId, reusableContentId,
                                                    evaluated=evaluated))
    return JSONDocument.model_validate(wire)
