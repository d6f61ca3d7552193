"""Revision, page, file and reusable-content shapes (the reference spec's `Revision`, `RevisionPage*`,
`RevisionFile`, `RevisionReusableContent`), from a revision and its tree (content.tree).

Computed on the way out: `kind`, `path`, `urls`, document pages' full `layout`, links' `href` for URL
targets, files' `downloadURL`. With `metadata=False` the mutable Git metadata (`git`) is left out.

The `*_fields` functions give the plain bodies, for shapes that embed them (a link's location, a
revision's pages); the `*_to_wire` functions give the response models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bindery.api.responses.change_requests import ChangeRequest
from bindery.api.responses.content import (
    ContentUpdated,
    JSONDocument,
    Revision,
    RevisionFile,
    RevisionPage,
    RevisionPages,
    RevisionReusableContent,
)
from bindery.api.wire.content_views import View
from bindery.api.wire.urls import api_url
from bindery.engines.content.page_defaults import EMPTY_DOCUMENT, layout
from bindery.engines.content.tree import Tree
from bindery.store import blobs
from bindery.store.revisions import Revision as StoredRevision
from bindery.store.spaces import Space

# The content engine's values, importable from here too (domain.change_requests.exports reads them here).
__all__ = ["EMPTY_DOCUMENT", "layout"]

KINDS = {"document": "sheet", "group": "group", "link": "link"}
# The optional fields each page type's schema names (beyond id, title and the computed ones).
BASE_FIELDS = ("emoji", "icon", "createdAt", "updatedAt", "condition")
TYPE_FIELDS = {
    "document": ("description", "hidden", "noIndex", "noRobotsIndex", "cover", "variables", "git",
                 "documentId", "computed", "computedSeed"),
    "group": ("hidden", "noIndex", "noRobotsIndex"),
    "link": ("target", "href", "hidden"),
    "computed": ("computed",),
}


class OpenedShown(Protocol):
    """A revision opened for reading: what bindery.domain.content_reads.Opened holds."""

    @property
    def space(self) -> Space: ...
    @property
    def revision(self) -> StoredRevision: ...
    @property
    def current(self) -> bool: ...
    @property
    def metadata(self) -> bool: ...


def view_of(opened: OpenedShown) -> View:
    """How the revision `opened` is shown."""
    return View(opened.space.id, opened.revision.id, opened.current, opened.metadata)


def page_fields(view: View, entry: Mapping[str, Any], path: str | None, *,
                body: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One page and its descendants. `body` (`{"document": …}` or `{"markdown": …}`) goes on a document
    page read by itself; listings carry `documentId` only."""
    kind = entry["type"]
    out: dict[str, Any] = {"id": entry["id"], "title": entry["title"]}
    if kind in KINDS:
        out["kind"] = KINDS[kind]
    out["type"] = kind
    for name in (*BASE_FIELDS, *TYPE_FIELDS[kind]):
        if name in entry and (name != "git" or view.metadata):
            out[name] = entry[name]
    if kind == "link" and "href" not in out and entry["target"].get("kind") == "url":
        out["href"] = entry["target"].get("url")
    if kind in ("document", "group"):
        assert path is not None
        out["slug"], out["path"] = entry["slug"], path
        out["pages"] = [page_fields(view, child, f"{path}/{child['slug']}" if "slug" in child else None)
                        for child in entry.get("pages") or []]
    if kind == "document":
        out["urls"] = {"app": view.app_url(path or "")}
        out["layout"] = layout(entry.get("layout"))
        if body is not None:
            out.update(body)
    return out


def page_to_wire(view: View, entry: Mapping[str, Any], path: str | None, *, document: Any = None,
                 markdown: str | None = None) -> RevisionPage:
    """A page read by itself: a document page carries its `document`, or its `markdown` when asked."""
    body = {"markdown": markdown} if markdown is not None else (
        {"document": document} if document is not None else None)
    return RevisionPage.model_validate(page_fields(view, entry, path, body=body), context=view.stored())


def pages_fields(view: View, tree: Tree) -> list[dict[str, Any]]:
    return [page_fields(view, entry, entry.get("slug")) for entry in tree.pages]


def pages_to_wire(view: View, tree: Tree) -> RevisionPages:
    return RevisionPages.model_validate({"pages": pages_fields(view, tree)}, context=view.stored())


def file_fields(view: View, entry: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": entry["id"], "name": entry["name"], "contentType": entry["contentType"],
        "downloadURL": blobs.file_url(view.space_id, entry["digest"], name=entry["name"],
                                      content_type=entry["contentType"]),
        "size": entry["size"],
    }
    if entry.get("dimensions"):
        out["dimensions"] = entry["dimensions"]
    if view.metadata and entry.get("git"):
        out["git"] = entry["git"]
    return out


def file_to_wire(view: View, entry: Mapping[str, Any]) -> RevisionFile:
    return RevisionFile.model_validate(file_fields(view, entry))


def reusable_content_fields(view: View, entry: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": entry["id"], "title": entry["title"]}
    if entry.get("document"):
        out["document"] = entry["document"]
    if view.metadata and entry.get("git"):
        out["git"] = entry["git"]
    return out


def reusable_content_to_wire(view: View, entry: Mapping[str, Any]) -> RevisionReusableContent:
    return RevisionReusableContent.model_validate(reusable_content_fields(view, entry))


def revision_to_wire(view: View, revision: StoredRevision, tree: Tree, *,
                     merged_from: ChangeRequest | None = None) -> Revision:
    """`merged_from`: the change request a `merge` revision merged."""
    out: dict[str, Any] = {
        "object": "revision", "id": revision.id, "type": revision.type, "parents": revision.parents,
        "pages": pages_fields(view, tree),
        "files": [file_fields(view, entry) for entry in tree.files],
        "reusableContents": [reusable_content_fields(view, entry) for entry in tree.reusable_contents],
        "variables": dict(tree.variables), "createdAt": revision.created_at,
        "urls": {"app": View(view.space_id, revision.id, current=False).app_url()},
    }
    if view.metadata and revision.git:
        out["git"] = revision.git
    if merged_from is not None:
        out["mergedFrom"] = merged_from
    return Revision.model_validate(out, context=view.stored())


def document_to_wire(document: Mapping[str, Any]) -> JSONDocument:
    return JSONDocument.model_validate(dict(document))


def content_updated_to_wire(change_request: ChangeRequest, *, space_id: str, revision_id: str,
                            touched: Mapping[str, str], refs: Mapping[str, str],
                            inserted_files: list[Mapping[str, Any]]) -> ContentUpdated:
    """What `POST CR/content` answers without `compat`: the change request (now at `revision_id`), the
    pages the batch touched (`touched`: page id -> what; `refs`: the ref an insert gave) and the files it
    inserted (their entries in that revision)."""
    location = f"/spaces/{space_id}/change-requests/{change_request.id}/content/page/"
    changes: list[dict[str, Any]] = []
    for page_id, what in touched.items():
        if what == "deleted_page":
            changes.append({"object": what, "page": page_id})
            continue
        change: dict[str, Any] = {"object": what, "page": {
            "object": "page", "id": page_id, "urls": {"location": api_url(location + page_id)}}}
        if page_id in refs:
            change["ref"] = refs[page_id]
        changes.append(change)
    view = View(space_id, revision_id, current=False)
    return ContentUpdated.model_validate({
        "changeRequest": change_request, "changes": changes,
        "insertedFiles": [file_fields(view, entry) for entry in inserted_files]})
