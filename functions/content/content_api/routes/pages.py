"""Pages: the page tree, one page by id or by path (with its document, as JSON or Markdown), and a page's
document alone; of the current revision or of a given one."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import unquote

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.route_params import Who
from bindery.api.schemas.content import DocumentFormat, Evaluated
from bindery.api.wire.models.content import JSONDocument, RevisionPage, RevisionPages
from bindery.domain import content_reads as reads

router = Router()


@router.get("/content/pages")
def list_pages(
    spaceId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPages:
    found = reads.list_pages(who, spaceId, None, metadata=metadata, computed=computed)
    return RevisionPages.model_validate(found)


@router.get("/revisions/<revisionId>/pages")
def list_pages_in_revision(
    spaceId: str, revisionId: str, who: Who, *,  # noqa: N803
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPages:
    found = reads.list_pages(who, spaceId, revisionId, metadata=metadata, computed=computed)
    return RevisionPages.model_validate(found)


@router.get("/content/page/<pageId>")
def get_page(
    spaceId: str, pageId: str, who: Who, *,  # noqa: N803
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    evaluated: Annotated[Evaluated, Query()] = False,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPage:
    wire = reads.get_page(who, spaceId, None, pageId, fmt=format, evaluated=evaluated,
                          metadata=metadata, computed=computed)
    return RevisionPage.model_validate(wire)


@router.get("/revisions/<revisionId>/page/<pageId>")
def get_page_in_revision(
    spaceId: str, revisionId: str, pageId: str, who: Who, *,  # noqa: N803
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    evaluated: Annotated[Evaluated, Query()] = False,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPage:
    wire = reads.get_page(who, spaceId, revisionId, pageId, fmt=format, evaluated=evaluated,
                          metadata=metadata, computed=computed)
    return RevisionPage.model_validate(wire)


@router.get("/revisions/<revisionId>/page/<pageId>/document")
def get_page_document_in_revision(
    spaceId: str, revisionId: str, pageId: str, who: Who, *,  # noqa: N803
    evaluated: Annotated[Evaluated, Query()] = False,
) -> JSONDocument:
    wire = dict(reads.get_page_document(who, spaceId, revisionId, pageId, evaluated=evaluated))
    return JSONDocument.model_validate(wire)


@router.get("/content/path/<pagePath>")
def get_page_by_path(
    spaceId: str, pagePath: str, who: Who, *,  # noqa: N803
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    evaluated: Annotated[Evaluated, Query()] = False,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPage:
    # The path may span several segments: content_api.app escapes them into this one.
    wire = reads.get_page(who, spaceId, None, path=unquote(pagePath), fmt=format, evaluated=evaluated,
                          metadata=metadata, computed=computed)
    return RevisionPage.model_validate(wire)


@router.get("/revisions/<revisionId>/path/<pagePath>")
def get_page_in_revision_by_path(
    spaceId: str, revisionId: str, pagePath: str, who: Who, *,  # noqa: N803
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    evaluated: Annotated[Evaluated, Query()] = False,
    metadata: Annotated[bool, Query()] = True,
    computed: Annotated[bool, Query()] = True,
) -> RevisionPage:
    wire = reads.get_page(who, spaceId, revisionId, path=unquote(pagePath), fmt=format,
                          evaluated=evaluated, metadata=metadata, computed=computed)
    return RevisionPage.model_validate(wire)
