"""Reads of a revision and of what it holds: the revision itself, its page tree, one page by id or by path
(with its document, as JSON or Markdown), its files (listed, paginated, or by id) and its reusable
contents.

Mounted under `/spaces/{spaceId}/content` (the current revision), `/spaces/{spaceId}/revisions/{revisionId}`
and `/spaces/{spaceId}/change-requests/{changeRequestId}/content` (the change request's revision);
content_api.target tells them apart. `metadata=false` leaves out the mutable Git metadata; `computed=false`
shows computed pages as stored instead of computing them (docs/openapi.md).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import unquote

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.content import (
    Revision,
    RevisionFile,
    RevisionFileList,
    RevisionPage,
    RevisionPages,
    RevisionReusableContent,
)
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.content import (
    file_to_wire,
    page_to_wire,
    pages_to_wire,
    reusable_content_to_wire,
    revision_to_wire,
    view_of,
)
from bindery.api.wire.lists import list_page
from bindery.domain import content_reads as reads
from bindery.domain.content_reads import ContentRef, PageRead
from bindery.requests.content import DocumentFormat, Evaluated
from content_api.target import content_ref

router = Router()
Where = Annotated[ContentRef, Depends(content_ref)]
Metadata = Annotated[bool, Query()]
Computed = Annotated[bool, Query()]
Format = Annotated[DocumentFormat | None, Query()]
EvaluatedFlag = Annotated[Evaluated, Query()]


def _page(found: PageRead) -> RevisionPage:
    return page_to_wire(view_of(found.opened), found.located.entry, found.located.path,
                        document=found.document, markdown=found.markdown)


@router.get("/spaces/<spaceId>/content")
@router.get("/spaces/<spaceId>/revisions/<revisionId>")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content")
def get_revision(who: Who, where: Where, *, metadata: Metadata = True, computed: Computed = True) -> Revision:
    found = reads.get_revision(who, where, metadata=metadata, computed=computed)
    merged_from = None
    if found.merged_from is not None:
        # Only a merge's revision shows a change request: its shapes are imported on first need (and
        # before a SnapStart snapshot: content_api.app).
        from bindery.api.wire.change_requests import change_request_to_wire

        merged_from = change_request_to_wire(found.merged_from)
    return revision_to_wire(view_of(found.opened), found.opened.revision, found.opened.tree,
                            merged_from=merged_from)


@router.get("/spaces/<spaceId>/content/pages")
@router.get("/spaces/<spaceId>/revisions/<revisionId>/pages")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/pages")
def list_pages(who: Who, where: Where, *, metadata: Metadata = True,
               computed: Computed = True) -> RevisionPages:
    opened = reads.list_pages(who, where, metadata=metadata, computed=computed)
    return pages_to_wire(view_of(opened), opened.tree)


@router.get("/spaces/<spaceId>/content/page/<pageId>")
@router.get("/spaces/<spaceId>/revisions/<revisionId>/page/<pageId>")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/page/<pageId>")
def get_page(
    pageId: str, who: Who, where: Where, *,
    format: Format = None,  # noqa: A002 - the spec's name
    evaluated: EvaluatedFlag = False,
    metadata: Metadata = True,
    computed: Computed = True,
) -> RevisionPage:
    return _page(reads.get_page(who, where, pageId, fmt=format, evaluated=evaluated, metadata=metadata,
                                computed=computed))


@router.get("/spaces/<spaceId>/content/path/<pagePath>")
@router.get("/spaces/<spaceId>/revisions/<revisionId>/path/<pagePath>")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/path/<pagePath>")
def get_page_by_path(
    pagePath: str, who: Who, where: Where, *,
    format: Format = None,  # noqa: A002 - the spec's name
    evaluated: EvaluatedFlag = False,
    metadata: Metadata = True,
    computed: Computed = True,
) -> RevisionPage:
    # The path may span several segments: content_api.app escapes them into this one.
    return _page(reads.get_page(who, where, path=unquote(pagePath), fmt=format, evaluated=evaluated,
                                metadata=metadata, computed=computed))


@router.get("/spaces/<spaceId>/content/files")
@router.get("/spaces/<spaceId>/revisions/<revisionId>/files")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/files")
def list_files(
    who: Who, where: Where, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    metadata: Metadata = True,
    computed: Computed = True,
) -> RevisionFileList:
    found = reads.list_files(who, where, limit=page_limit(limit), page=page, metadata=metadata)
    view = view_of(found.opened)
    return list_page(RevisionFileList, found.files, lambda entry: file_to_wire(view, entry))


@router.get("/spaces/<spaceId>/content/files/<fileId>")
@router.get("/spaces/<spaceId>/revisions/<revisionId>/files/<fileId>")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/files/<fileId>")
def get_file(fileId: str, who: Who, where: Where, *,
             metadata: Metadata = True, computed: Computed = True) -> RevisionFile:
    found = reads.get_file(who, where, fileId, metadata=metadata)
    return file_to_wire(view_of(found.opened), found.entry)


@router.get("/spaces/<spaceId>/content/reusable-contents/<reusableContentId>")
@router.get("/spaces/<spaceId>/revisions/<revisionId>/reusable-contents/<reusableContentId>")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/content/reusable-contents/<reusableContentId>")
def get_reusable_content(reusableContentId: str, who: Who, where: Where, *,
                         metadata: Metadata = True, computed: Computed = True) -> RevisionReusableContent:
    found = reads.get_reusable_content(who, where, reusableContentId, metadata=metadata)
    return reusable_content_to_wire(view_of(found.opened), found.entry)
