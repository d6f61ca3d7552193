"""A whole revision: the space's current one (getCurrentRevision) or any of its revisions
(getRevisionById)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.route_params import Who
from bindery.api.wire.models.content import Revision
from bindery.domain import content_reads as reads

router = Router()


@router.get("/content")
def get_current_revision(
    spaceId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> Revision:
    # `computed`: builtin:openapi pages shown as what they compute, or as stored (docs/openapi.md).
    found = reads.get_revision(who, spaceId, None, metadata=metadata, computed=computed)
    return Revision.model_validate(found)


@router.get("/revisions/<revisionId>")
def get_revision(
    spaceId: str, revisionId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> Revision:
    found = reads.get_revision(who, spaceId, revisionId, metadata=metadata, computed=computed)
    return Revision.model_validate(found)
