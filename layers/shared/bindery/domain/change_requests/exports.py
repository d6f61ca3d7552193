"""What a change request changes (`GET CR/changes`: the semantic changes from its base to its head,
content.changes) and its content as a PDF (`GET CR/pdf`, content.pdf.export). Both need any role on the space.

The PDF is rendered in the request and stored as a file of the space (content-addressed, so rendering
the same content twice stores one object); the answer is that file's presigned URL (valid one hour).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.change_requests.edits import load_tree
from bindery.domain.change_requests.merges import pending_conflicts
from bindery.domain.change_requests.records import open_change_request
from bindery.engines.content.changes import Change, diff_trees
from bindery.engines.content.merge.documents import EMPTY_DOCUMENT
from bindery.engines.content.merge.trees import PageConflict
from bindery.engines.content.pdf.export import render_pdf
from bindery.engines.content.tree import Tree
from bindery.platform.errors import BadRequest, NotFound
from bindery.store import blobs

DEFAULT_CHANGES = 10


@dataclass(frozen=True)
class ChangeList:
    """The changes shown (at most the limit), how many more there are, and what a merge would meet now."""

    space_id: str  # whose files the changes name
    changes: list[Change]
    more: int
    conflicts: list[PageConflict]


def list_changes(caller: Caller, space_id: str, ref: str, *, limit: int | None) -> ChangeList:
    opened = open_change_request(caller, space_id, ref)
    change_request = opened.change_request
    changes = diff_trees(load_tree(space_id, change_request.base).value,
                         load_tree(space_id, change_request.revision).value)
    shown = changes[:DEFAULT_CHANGES if limit is None else limit]
    return ChangeList(space_id, shown, len(changes) - len(shown),
                      pending_conflicts(change_request, opened.space))


def _document_pages(entries: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for entry in entries:
        if entry["type"] == "document":
            yield entry
        yield from _document_pages(list(entry.get("pages") or []))


def render(caller: Caller, space_id: str, ref: str, *, only: bool, page: str | None) -> str:
    """The PDF's presigned URL."""
    opened = open_change_request(caller, space_id, ref)
    change_request = opened.change_request
    tree: Tree = load_tree(space_id, change_request.revision)
    entries = list(_document_pages(tree.pages))
    if only:
        if not page:
            raise BadRequest("page: name the page to print with only=true")
        located = tree.page(page)
        if located is None or located.entry["type"] != "document":
            raise NotFound("No matching page")
        entries = [located.entry]

    def load_file(file_id: str) -> tuple[bytes, str] | None:
        entry = tree.file(file_id)
        data = blobs.read_file(space_id, entry["digest"]) if entry else None
        return (data, entry["contentType"]) if entry and data is not None else None

    pages = [(entry["title"], blobs.get_value(space_id, entry["documentId"]) if entry.get("documentId")
              else EMPTY_DOCUMENT) for entry in entries]
    title = change_request.subject or opened.space.title or "Change request"
    data = render_pdf(title, pages, load_file)
    digest = blobs.put_file(space_id, data)
    return blobs.file_url(space_id, digest, name=f"change-request-{change_request.number}.pdf",
                          content_type="application/pdf")
