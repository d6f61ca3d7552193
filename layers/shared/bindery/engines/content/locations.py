"""Where things are in a revision, as a link report names them (bindery.engines.content.links): a page (and
the
node or anchor in it), a reusable content, a file, or a URL outside the revision. No I/O: the tree is given.

The domain resolves a report's places and targets against the revision's tree (`place`, `target`);
bindery.api.wire.links shows them as the spec's `ContentLocation`s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.engines.content.tree import Located, Tree


@dataclass(frozen=True)
class PageAt:
    """A page; `internal`: where in it (`{"type": "node", "node": key}` or `{"type": "anchor", …}`)."""

    located: Located
    internal: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class ReusableContentAt:
    entry: Mapping[str, Any]


@dataclass(frozen=True)
class FileAt:
    entry: Mapping[str, Any]


@dataclass(frozen=True)
class UrlAt:
    url: str


Location = PageAt | ReusableContentAt | FileAt | UrlAt


@dataclass(frozen=True)
class Usage:
    """One target of a link report: its status and relation, where the revision has it (None for a missing
    page or file, and for targets outside the space) and the places that use it."""

    status: str
    relation: str
    target: Location | None
    locations: list[Location]


def _page(tree: Tree, page_id: str, internal: Mapping[str, Any] | None = None) -> PageAt | None:
    located = tree.page(page_id)
    return PageAt(located, internal) if located is not None else None


def place(tree: Tree, where: Mapping[str, Any]) -> Location | None:
    """Where a report found a reference: a page (with the node holding it) or a reusable content (the
    spec's location has no node there)."""
    if "reusableContent" in where:
        content = tree.reusable_content(where["reusableContent"])
        return ReusableContentAt(content) if content is not None else None
    return _page(tree, where["page"], {"type": "node", "node": where["node"]} if where.get("node") else None)


def target(tree: Tree, ref: Mapping[str, Any]) -> Location | None:  # noqa: PLR0911 (one per kind)
    """The target where the revision has it; None for a missing page or file and for targets outside the
    space, which Bindery does not look up."""
    kind = ref["kind"]
    if kind == "url":
        return UrlAt(ref["url"])
    if "space" in ref:
        return None
    if kind == "page":
        return _page(tree, ref["page"])
    if kind == "anchor" and "page" in ref:  # without: relative to a reusable content's host page
        return _page(tree, ref["page"], {"type": "anchor", "anchor": ref["anchor"]})
    if kind == "file" and (entry := tree.file(ref["file"])) is not None:
        return FileAt(entry)
    if kind == "reusable-content" and (content := tree.reusable_content(ref["reusableContent"])) is not None:
        return ReusableContentAt(content)
    return None


def usage(tree: Tree, found: Mapping[str, Any], page_id: str | None) -> Usage:
    """A report target as a `Usage`; with `page_id`, only the places in that page."""
    places = [located for where in found["locations"]
              if (page_id is None or where.get("page") == page_id)
              and (located := place(tree, where)) is not None]
    return Usage(found["status"], found["relation"], target(tree, found["ref"]), places)
