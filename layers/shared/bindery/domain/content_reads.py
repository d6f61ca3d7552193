"""Every read of a space's content: its current revision (`…/content…`) or any of its revisions
(`…/revisions/{revisionId}…`).

Each read checks the caller's access to the space (any role reads; no role is a 404), then takes the
revision item (GetItem) and its tree (one GetItem, plus one S3 GET for a large tree), and, for a page's
or reusable content's body, its document blob (GetItem). Revisions, trees and documents never change,
so all three are cached in the process: a warm read costs the access check only. A revision id is looked
up in the space's own partition, so another space's revision is a 404 like an unknown one.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.api.schemas.content import DocumentFormat, Evaluated, evaluation_mode
from bindery.api.wire.change_requests import change_request_body
from bindery.api.wire.content import (
    EMPTY_DOCUMENT,
    View,
    file_to_wire,
    page_to_wire,
    pages_to_wire,
    reusable_content_to_wire,
    revision_to_wire,
)
from bindery.auth import Caller
from bindery.content.tree import Located, Tree
from bindery.domain.access.content import space_access
from bindery.domain.change_requests.records import change_request_view
from bindery.domain.content_evaluation import evaluate
from bindery.domain.openapi import reference_pages
from bindery.errors import BadRequest, NotFound
from bindery.pagination import Listing, decode_cursor, encode_cursor
from bindery.store import blobs
from bindery.store import change_requests as cr_store
from bindery.store import revisions as revision_store
from bindery.store.revisions import Revision
from bindery.store.spaces import Space

NO_REVISION = "No matching revision"
NO_PAGE = "No matching page"
NO_FILE = "No matching file"
NO_REUSABLE_CONTENT = "No matching reusable content"
NO_MARKDOWN = "format=markdown is not available yet"


@dataclass(frozen=True)
class Opened:
    revision: Revision
    tree: Tree
    view: View
    space: Space


def open_revision(caller: Caller, space_id: str, revision_id: str | None, *, metadata: bool = True,
                  current: bool | None = None, computed: bool = False) -> Opened:
    """`revision_id` None: the space's current revision. `computed`: computed pages shown as what they
    compute (bindery.domain.openapi.reference_pages), else as stored."""
    access = space_access(caller, space_id)
    access.require("read", "read this space's content")
    assert isinstance(access.node, Space)
    wanted = revision_id or access.node.revision
    revision = revision_store.get_revision(space_id, wanted) if wanted else None
    if revision is None:
        raise NotFound(NO_REVISION)
    view = View(space_id, revision.id, revision_id is None if current is None else current, metadata)
    tree = revision_store.load_tree(revision)
    if computed:
        tree = reference_pages.expand(tree, access.node.org_id)
    return Opened(revision, tree, view, access.node)


# --- documents --------------------------------------------------------------------------------------------
def _stored_document(space_id: str, digest: str | None) -> Any:
    return blobs.get_value(space_id, digest) if digest else EMPTY_DOCUMENT


def _evaluated(opened: Opened, document: Any, evaluated: Evaluated,
               page_variables: Mapping[str, Any] | None = None) -> Any:
    mode = evaluation_mode(evaluated)
    if mode is None:
        return document
    return evaluate(document, space_variables=opened.tree.variables, page_variables=page_variables,
                    mode=mode)


def to_markdown(document: Any) -> str:
    """Through the Markdown converter (bindery.content.markdown) once it provides document_to_markdown."""
    try:
        module: Any = importlib.import_module("bindery.content.markdown")
    except ImportError:
        module = None
    convert = getattr(module, "document_to_markdown", None)
    if convert is None:
        raise BadRequest(NO_MARKDOWN)
    return str(convert(document))


def _page_document(opened: Opened, entry: Mapping[str, Any], evaluated: Evaluated) -> Any:
    source = entry.get("computed")
    computed = reference_pages.document(source) if isinstance(source, Mapping) and not entry.get(
        "documentId") else None
    document = computed or _stored_document(opened.view.space_id, entry.get("documentId"))
    return _evaluated(opened, document, evaluated, entry.get("variables"))


def _page(opened: Opened, located: Located, fmt: DocumentFormat | None,
          evaluated: Evaluated) -> dict[str, Any]:
    body: dict[str, Any] | None = None
    if located.entry["type"] == "document":
        if fmt == "markdown":
            body = {"markdown": to_markdown(_page_document(opened, located.entry, evaluated))}
        else:
            body = {"document": _page_document(opened, located.entry, evaluated)}
    return page_to_wire(opened.view, located.entry, located.path, body=body)


# --- revisions and pages ----------------------------------------------------------------------------------
def get_revision(caller: Caller, space_id: str, revision_id: str | None, *, metadata: bool,
                 computed: bool = True) -> dict[str, Any]:
    opened = open_revision(caller, space_id, revision_id, metadata=metadata, computed=computed)
    out = revision_to_wire(opened.view, opened.revision, opened.tree)
    if opened.revision.merged_from is not None:
        # The spec's `merge` revision embeds the change request merged, as it is now (one GetItem, and
        # one BatchGetItem of the users it names); change requests are never deleted.
        merged_from = cr_store.get_change_request(space_id, opened.revision.merged_from)
        if merged_from is not None:
            shown = change_request_view(merged_from, opened.space)
            out["mergedFrom"] = change_request_body(shown.change_request, shown.users,
                                                    outdated=shown.outdated)
    return out


def list_pages(caller: Caller, space_id: str, revision_id: str | None, *, metadata: bool,
               computed: bool = True) -> dict[str, Any]:
    opened = open_revision(caller, space_id, revision_id, metadata=metadata, computed=computed)
    return {"pages": pages_to_wire(opened.view, opened.tree)}


def get_page(caller: Caller, space_id: str, revision_id: str | None, page_id: str | None = None, *,
             path: str | None = None, fmt: DocumentFormat | None, evaluated: Evaluated,
             metadata: bool, computed: bool = True) -> dict[str, Any]:
    """A page by id, or by `path` (document and group pages have paths; link and computed pages do not)."""
    opened = open_revision(caller, space_id, revision_id, metadata=metadata, computed=computed)
    located = opened.tree.page(page_id) if page_id is not None else opened.tree.page_by_path(path or "")
    if located is None:
        raise NotFound(NO_PAGE)
    return _page(opened, located, fmt, evaluated)


def get_page_document(caller: Caller, space_id: str, revision_id: str, page_id: str, *,
                      evaluated: Evaluated) -> Any:
    """The page's JSON document (an empty one for a document page without a body); other pages have none."""
    opened = open_revision(caller, space_id, revision_id, computed=True)
    located = opened.tree.page(page_id)
    if located is None or located.entry["type"] != "document":
        raise NotFound(NO_PAGE)
    return _page_document(opened, located.entry, evaluated)


# --- files and reusable contents ----------------------------------------------------------------------------
def list_files(caller: Caller, space_id: str, revision_id: str | None, *, limit: int, page: str | None,
               metadata: bool) -> Listing[Any]:
    """In the tree's order, `limit` at a time; the cursor pins the revision the first page read, so a
    listing of the current content stays one revision's files while the space moves on."""
    scope = f"files:{space_id}:{revision_id or ''}"
    start = decode_cursor(scope, page)
    offset = 0
    pinned = revision_id
    if start is not None:
        if not isinstance(start.get("o"), int) or not isinstance(start.get("r"), str):
            raise BadRequest("page: invalid page cursor")
        offset, pinned = start["o"], start["r"]
    opened = open_revision(caller, space_id, pinned, metadata=metadata, current=revision_id is None)
    files = opened.tree.files
    items = [file_to_wire(opened.view, entry) for entry in files[offset:offset + limit]]
    more = offset + limit < len(files)
    cursor = encode_cursor(scope, {"r": opened.revision.id, "o": offset + limit}) if more else None
    return Listing(items=items, next_cursor=cursor, count=len(files))


def get_file(caller: Caller, space_id: str, revision_id: str | None, file_id: str, *,
             metadata: bool) -> dict[str, Any]:
    opened = open_revision(caller, space_id, revision_id, metadata=metadata)
    entry = opened.tree.file(file_id)
    if entry is None:
        raise NotFound(NO_FILE)
    return file_to_wire(opened.view, entry)


def get_reusable_content(caller: Caller, space_id: str, revision_id: str | None, content_id: str, *,
                         metadata: bool) -> dict[str, Any]:
    opened = open_revision(caller, space_id, revision_id, metadata=metadata)
    entry = opened.tree.reusable_content(content_id)
    if entry is None:
        raise NotFound(NO_REUSABLE_CONTENT)
    return reusable_content_to_wire(opened.view, entry)


def get_reusable_content_document(caller: Caller, space_id: str, revision_id: str, content_id: str, *,
                                  evaluated: Evaluated) -> Any:
    opened = open_revision(caller, space_id, revision_id)
    entry = opened.tree.reusable_content(content_id)
    if entry is None:
        raise NotFound(NO_REUSABLE_CONTENT)
    return _evaluated(opened, _stored_document(space_id, entry.get("document")), evaluated)
