"""Files of the current revision or of a given one: listed (paginated) or by id."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.models.content import RevisionFile, RevisionFileList
from bindery.domain import content_reads as reads

router = Router()


@router.get("/content/files")
def list_files(
    spaceId: str, who: Who, *,  # noqa: N803
    page: PageCursor = None,
    limit: PageLimit = None,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionFileList:
    wire = reads.list_files(who, spaceId, None, limit=page_limit(limit), page=page,
                            metadata=metadata).to_wire()
    return RevisionFileList.model_validate(wire)


@router.get("/revisions/<revisionId>/files")
def list_files_in_revision(
    spaceId: str, revisionId: str, who: Who, *,  # noqa: N803
    page: PageCursor = None,
    limit: PageLimit = None,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionFileList:
    wire = reads.list_files(who, spaceId, revisionId, limit=page_limit(limit), page=page,
                            metadata=metadata).to_wire()
    return RevisionFileList.model_validate(wire)


@router.get("/content/files/<fileId>")
def get_file(
    spaceId: str, fileId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionFile:
    return RevisionFile.model_validate(reads.get_file(who, spaceId, None, fileId, metadata=metadata))


@router.get("/revisions/<revisionId>/files/<fileId>")
def get_file_in_revision(
    spaceId: str, revisionId: str, fileId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionFile:
    return RevisionFile.model_validate(reads.get_file(who, spaceId, revisionId, fileId, metadata=metadata))
