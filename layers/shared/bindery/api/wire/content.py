"""Revision, page, file and reusable-content shapes (the reference spec's `Revision`, `RevisionPage*`,
`RevisionFile`, `RevisionReusableContent`), from a revision and its tree (content.tree).

Computed on the way out: `kind`, `path`, `urls`, document pages' full `layout`, links' `href` for URL
targets, files' `downloadURL`. With `metadata=False` the mutable Git metadata (`git`) is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from bindery.api.wire.urls import app_url
from bindery.content.tree import Tree
from bindery.store import blobs
from bindery.store.revisions import Revision

DEFAULT_LAYOUT: dict[str, Any] = {
    "width": "default", "cover": True, "coverSize": "hero", "title": True, "description": True,
    "tableOfContents": True, "outline": True, "pagination": True, "metadata": True,
}
LAYOUT_PRESETS: dict[str, dict[str, Any]] = {
    "docs": DEFAULT_LAYOUT,
    "editorial": {**DEFAULT_LAYOUT, "width": "wide", "tableOfContents": False, "outline": False},
    "landing": {**DEFAULT_LAYOUT, "width": "wide", "coverSize": "full", "tableOfContents": False,
                "outline": False, "pagination": False, "metadata": False},
}
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
EMPTY_DOCUMENT: dict[str, Any] = {"object": "document", "data": {}, "nodes": []}


@dataclass(frozen=True)
class View:
    """Which revision is shown, and how: `current` content links to the space, others to the revision."""

    space_id: str
    revision_id: str
    current: bool
    metadata: bool = True

    def app_url(self, path: str = "") -> str:
        base = f"/s/{self.space_id}/"
        if not self.current:
            base += f"~/revisions/{self.revision_id}/"
        return app_url(base + quote(path))


def layout(stored: Any) -> dict[str, Any]:
    if isinstance(stored, str):
        return dict(LAYOUT_PRESETS.get(stored, DEFAULT_LAYOUT))
    return {**DEFAULT_LAYOUT, **(stored if isinstance(stored, Mapping) else {})}


def page_to_wire(view: View, entry: Mapping[str, Any], path: str | None, *,
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
        out["pages"] = [page_to_wire(view, child, f"{path}/{child['slug']}" if "slug" in child else None)
                        for child in entry.get("pages") or []]
    if kind == "document":
        out["urls"] = {"app": view.app_url(path or "")}
        out["layout"] = layout(entry.get("layout"))
        if body is not None:
            out.update(body)
    return out


def pages_to_wire(view: View, tree: Tree) -> list[dict[str, Any]]:
    return [page_to_wire(view, entry, entry.get("slug")) for entry in tree.pages]


def file_to_wire(view: View, entry: Mapping[str, Any]) -> dict[str, Any]:
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


def reusable_content_to_wire(view: View, entry: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": entry["id"], "title": entry["title"]}
    if entry.get("document"):
        out["document"] = entry["document"]
    if view.metadata and entry.get("git"):
        out["git"] = entry["git"]
    return out


def revision_to_wire(view: View, revision: Revision, tree: Tree) -> dict[str, Any]:
    out: dict[str, Any] = {
        "object": "revision", "id": revision.id, "type": revision.type, "parents": revision.parents,
        "pages": pages_to_wire(view, tree),
        "files": [file_to_wire(view, entry) for entry in tree.files],
        "reusableContents": [reusable_content_to_wire(view, entry) for entry in tree.reusable_contents],
        "variables": dict(tree.variables), "createdAt": revision.created_at,
        "urls": {"app": View(view.space_id, revision.id, current=False).app_url()},
    }
    if view.metadata and revision.git:
        out["git"] = revision.git
    return out
