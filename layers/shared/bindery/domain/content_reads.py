"""Every read of a space's content: its current revision (`…/content…`), any of its revisions
(`…/revisions/{revisionId}…`) or a change request's (`…/change-requests/{id}/content…`).

Each read checks the caller's access to the space (any role reads; no role is a 404), then takes the
revision item (GetItem) and its tree (one GetItem, plus one S3 GET for a large tree), and, for a page's
or reusable content's body, its document blob (GetItem). Revisions, trees and documents never change,
so all three are cached in the process: a warm read costs the access check only. A revision id is looked
up in the space's own partition, so another space's revision is a 404 like an unknown one. A change
request's content costs its GetItem first (a number: one GSI2 Query first).

Results are typed (the revision as `Opened`, and what was found in it); bindery.api.wire.content shapes
them.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import space_access
from bindery.domain.change_requests.records import (
    ChangeRequestView,
    change_request_for_read,
    change_request_view,
)
from bindery.engines.content.page_defaults import EMPTY_DOCUMENT
from bindery.engines.content.tree import Located, Tree
from bindery.platform.errors import BadRequest, NotFound
from bindery.platform.pagination import Listing, decode_cursor, encode_cursor
from bindery.requests.content import DocumentFormat, Evaluated, evaluation_mode
from bindery.store import blobs
from bindery.store import change_requests as cr_store
from bindery.store import revisions as revision_store
from bindery.store.members import Member
from bindery.store.revisions import Revision
from bindery.store.spaces import Space

NO_REVISION = "No matching revision"
NO_PAGE = "No matching page"
NO_FILE = "No matching file"
NO_REUSABLE_CONTENT = "No matching reusable content"
NO_MARKDOWN = "format=markdown is not available yet"


@dataclass(frozen=True)
class ContentRef:
    """Which revision of a space a read is about: the current one (neither id), a given revision, or a
    change request's (its current revision)."""

    space_id: str
    revision_id: str | None = None
    change_request_id: str | None = None


@dataclass(frozen=True)
class Opened:
    """A revision as read. `current`: the space's current content (its URLs name the space, not the
    revision); `metadata`: the mutable Git metadata is shown."""

    space: Space
    revision: Revision
    tree: Tree
    current: bool
    viewer: Member  # who reads: the users an answer names are shown as they may see them
    metadata: bool = True


@dataclass(frozen=True)
class RevisionRead:
    opened: Opened
    merged_from: ChangeRequestView | None  # the change request a `merge` revision merged


@dataclass(frozen=True)
class PageRead:
    """A page; a document page read by itself has its body: `document`, or `markdown` when asked."""

    opened: Opened
    located: Located
    document: Any = None
    markdown: str | None = None


@dataclass(frozen=True)
class EntryRead:
    """A file or a reusable content of the revision (its tree entry)."""

    opened: Opened
    entry: Mapping[str, Any]


@dataclass(frozen=True)
class FilesRead:
    opened: Opened
    files: Listing[Mapping[str, Any]]


def revision_id_of(caller: Caller, ref: ContentRef) -> str | None:
    """The revision `ref` names (None: the space's current one); a change request's is read here."""
    if ref.change_request_id is not None:
        return change_request_for_read(caller, ref.space_id, ref.change_request_id).revision
    return ref.revision_id


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
    tree = revision_store.load_tree(revision)
    if computed and "computed" in tree.page_types:  # else `expand` returns the tree as it is
        # Imported on first need: only a space with a computed page (an OpenAPI reference) uses it, and
        # it brings the specs' store and the reference renderer (bench/README.md, "Cold start").
        from bindery.domain.openapi import reference_pages
        tree = reference_pages.expand(tree, access.node.org_id)
    return Opened(access.node, revision, tree, revision_id is None if current is None else current,
                  access.member, metadata)


def _open(caller: Caller, ref: ContentRef, *, metadata: bool = True, computed: bool = False) -> Opened:
    return open_revision(caller, ref.space_id, revision_id_of(caller, ref), metadata=metadata,
                         computed=computed)


# --- documents --------------------------------------------------------------------------------------------
def _stored_document(space_id: str, digest: str | None) -> Any:
    return blobs.get_value(space_id, digest) if digest else EMPTY_DOCUMENT


def _evaluated(opened: Opened, document: Any, evaluated: Evaluated,
               page_variables: Mapping[str, Any] | None = None) -> Any:
    mode = evaluation_mode(evaluated)
    if mode is None:
        return document
    # Most reads ask for the document as stored: the expression evaluator is imported on the first read
    # that asks for it (and before a SnapStart snapshot: content_api.app).
    from bindery.domain.content_evaluation import evaluate

    return evaluate(document, space_variables=opened.tree.variables, page_variables=page_variables,
                    mode=mode)


def to_markdown(document: Any) -> str:
    """Through the Markdown converter (bindery.engines.content.markdown) once it provides
    document_to_markdown."""
    try:
        module: Any = importlib.import_module("bindery.engines.content.markdown")
    except ImportError:
        module = None
    convert = getattr(module, "document_to_markdown", None)
    if convert is None:
        raise BadRequest(NO_MARKDOWN)
    return str(convert(document))


def _page_document(opened: Opened, entry: Mapping[str, Any], evaluated: Evaluated) -> Any:
    source = entry.get("computed")
    computed = None
    if isinstance(source, Mapping) and not entry.get("documentId"):
        from bindery.domain.openapi import reference_pages  # on first need, as in open_revision
        computed = reference_pages.document(source)
    document = computed or _stored_document(opened.space.id, entry.get("documentId"))
    return _evaluated(opened, document, evaluated, entry.get("variables"))


# --- revisions and pages ----------------------------------------------------------------------------------
def get_revision(caller: Caller, ref: ContentRef, *, metadata: bool, computed: bool = True) -> RevisionRead:
    opened = _open(caller, ref, metadata=metadata, computed=computed)
    merged_from = None
    if opened.revision.merged_from is not None:
        # The spec's `merge` revision embeds the change request merged, as it is now (one GetItem, and
        # one BatchGetItem of the users it names); change requests are never deleted.
        found = cr_store.get_change_request(ref.space_id, opened.revision.merged_from)
        if found is not None:
            merged_from = change_request_view(found, opened.space, opened.viewer)
    return RevisionRead(opened, merged_from)


def list_pages(caller: Caller, ref: ContentRef, *, metadata: bool, computed: bool = True) -> Opened:
    return _open(caller, ref, metadata=metadata, computed=computed)


def get_page(caller: Caller, ref: ContentRef, page_id: str | None = None, *, path: str | None = None,
             fmt: DocumentFormat | None, evaluated: Evaluated, metadata: bool,
             computed: bool = True) -> PageRead:
    """A page by id, or by `path` (document and group pages have paths; link and computed pages do not)."""
    opened = _open(caller, ref, metadata=metadata, computed=computed)
    located = opened.tree.page(page_id) if page_id is not None else opened.tree.page_by_path(path or "")
    if located is None:
        raise NotFound(NO_PAGE)
    if located.entry["type"] != "document":
        return PageRead(opened, located)
    document = _page_document(opened, located.entry, evaluated)
    if fmt == "markdown":
        return PageRead(opened, located, markdown=to_markdown(document))
    return PageRead(opened, located, document=document)


def get_page_document(caller: Caller, space_id: str, revision_id: str, page_id: str, *,
                      evaluated: Evaluated) -> Any:
    """The page's JSON document (an empty one for a document page without a body); other pages have none."""
    opened = open_revision(caller, space_id, revision_id, computed=True)
    located = opened.tree.page(page_id)
    if located is None or located.entry["type"] != "document":
        raise NotFound(NO_PAGE)
    return _page_document(opened, located.entry, evaluated)


# --- files and reusable contents ----------------------------------------------------------------------------
# Computing content changes pages only: files and reusable contents are read from the stored tree, whatever
# `computed` says, so their reads never pay for computing pages.
def list_files(caller: Caller, ref: ContentRef, *, limit: int, page: str | None, metadata: bool) -> FilesRead:
    """In the tree's order, `limit` at a time; the cursor pins the revision the first page read, so a
    listing of the current content stays one revision's files while the space moves on (and a change
    request's that moved on meanwhile is refused, 400, rather than mixing two revisions' files)."""
    revision_id = revision_id_of(caller, ref)
    scope = f"files:{ref.space_id}:{revision_id or ''}"
    start = decode_cursor(scope, page)
    offset = 0
    pinned = revision_id
    if start is not None:
        if not isinstance(start.get("o"), int) or not isinstance(start.get("r"), str):
            raise BadRequest("page: invalid page cursor")
        offset, pinned = start["o"], start["r"]
    opened = open_revision(caller, ref.space_id, pinned, metadata=metadata, current=revision_id is None)
    files = opened.tree.files
    more = offset + limit < len(files)
    cursor = encode_cursor(scope, {"r": opened.revision.id, "o": offset + limit}) if more else None
    return FilesRead(opened, Listing(items=list(files[offset:offset + limit]), next_cursor=cursor,
                                     count=len(files)))


def get_file(caller: Caller, ref: ContentRef, file_id: str, *, metadata: bool) -> EntryRead:
    opened = _open(caller, ref, metadata=metadata)
    entry = opened.tree.file(file_id)
    if entry is None:
        raise NotFound(NO_FILE)
    return EntryRead(opened, entry)


def get_reusable_content(caller: Caller, ref: ContentRef, content_id: str, *, metadata: bool) -> EntryRead:
    opened = _open(caller, ref, metadata=metadata)
    entry = opened.tree.reusable_content(content_id)
    if entry is None:
        raise NotFound(NO_REUSABLE_CONTENT)
    return EntryRead(opened, entry)


def get_reusable_content_document(caller: Caller, space_id: str, revision_id: str, content_id: str, *,
                                  evaluated: Evaluated) -> Any:
    opened = open_revision(caller, space_id, revision_id)
    entry = opened.tree.reusable_content(content_id)
    if entry is None:
        raise NotFound(NO_REUSABLE_CONTENT)
    return _evaluated(opened, _stored_document(space_id, entry.get("document")), evaluated)
