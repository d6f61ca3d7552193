"""CR/content…: a change request's content, read as a space's is (domain.content_reads, on the change
request's current revision), and edited (`POST CR/content`: an ordered batch of changes applied as one new
revision of the change request, domain.change_requests.edits).

A read costs the change request's GetItem (a number: one GSI2 Query first) on top of the revision read;
content_reads checks the caller's access to the space.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import unquote

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.schemas.change_requests import UpdateContent
from bindery.api.schemas.content import DocumentFormat, Evaluated
from bindery.api.wire.models.content import (
    ContentUpdateResult,
    Revision,
    RevisionFile,
    RevisionFileList,
    RevisionPage,
    RevisionPages,
    RevisionReusableContent,
)
from bindery.auth import Caller
from bindery.domain import content_reads as reads
from bindery.domain.change_requests import edits
from bindery.domain.change_requests.records import change_request_for_read

router = Router()


def _revision(who: Caller, space_id: str, change_request_id: str) -> str:
    return change_request_for_read(who, space_id, change_request_id).revision


@router.get("/content")
def get_revision(
    spaceId: str, changeRequestId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> Revision:
    wire = reads.get_revision(who, spaceId, _revision(who, spaceId, changeRequestId),
                              metadata=metadata, computed=computed)
    return Revision.model_validate(wire)


@router.post("/content")
def update_content(
    spaceId: str, changeRequestId: str, who: Who,  # noqa: N803
    body: Annotated[UpdateContent, Body()], *,
    compat: Annotated[bool, Query()] = True,
) -> ContentUpdateResult:
    wire = edits.update_content(who, spaceId, changeRequestId, body, compat=compat)
    return ContentUpdateResult.model_validate(wire)


@router.get("/content/pages")
def list_pages(
    spaceId: str, changeRequestId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPages:
    wire = reads.list_pages(who, spaceId, _revision(who, spaceId, changeRequestId),
                            metadata=metadata, computed=computed)
    return RevisionPages.model_validate(wire)


@router.get("/content/page/<pageId>")
def get_page(
    spaceId: str, changeRequestId: str, pageId: str, who: Who, *,  # noqa: N803
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    evaluated: Annotated[Evaluated, Query()] = False,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPage:
    wire = reads.get_page(who, spaceId, _revision(who, spaceId, changeRequestId), pageId, fmt=format,
                          evaluated=evaluated, metadata=metadata, computed=computed)
    return RevisionPage.model_validate(wire)


@router.get("/content/path/<pagePath>")
def get_page_by_path(
    spaceId: str, changeRequestId: str, pagePath: str, who: Who, *,  # noqa: N803
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    evaluated: Annotated[Evaluated, Query()] = False,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPage:
    # The path may span several segments: content_api.app escapes them into this one.
    wire = reads.get_page(who, spaceId, _revision(who, spaceId, changeRequestId), path=unquote(pagePath),
                          fmt=format, evaluated=evaluated, metadata=metadata, computed=computed)
    return RevisionPage.model_validate(wire)


@router.get("/content/files")
def list_files(
    spaceId: str, changeRequestId: str, who: Who, *,  # noqa: N803
    page: PageCursor = None,
    limit: PageLimit = None,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionFileList:
    # The cursor is bound to the revision listed: if the change request moves on meanwhile, the next
    # page is refused (400) rather than mixing two revisions' files.
    wire = reads.list_files(who, spaceId, _revision(who, spaceId, changeRequestId), limit=page_limit(limit),
                            page=page, metadata=metadata).to_wire()
    return RevisionFileList.model_validate(wire)


@router.get("/content/files/<fileId>")
def get_file(
    spaceId: str, changeRequestId: str, fileId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionFile:
    wire = reads.get_file(who, spaceId, _revision(who, spaceId, changeRequestId), fileId, metadata=metadata)
    return RevisionFile.model_validate(wire)


@router.get("/content/reusable-contents/<reusableContentId>")
def get_reusable_content(
    spaceId: str, changeRequestId: str, reusableContentId: str,  # noqa: N803
    who: Who, *,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionReusableContent:
    wire = reads.get_reusable_content(who, spaceId, _revision(who, spaceId, changeRequestId),
                                      reusableContentId, metadata=metadata)
    return RevisionReusableContent.model_validate(wire)
