"""A site space's pages as a reader navigates them: the sidebar tree with the current page marked,
previous and next, and what a path names — a page, a group (its first page), a redirect from
`.gitbook.yaml` or from a page's Git Sync file path, or nothing (docs/published-sites.md, "Routing").

Hidden pages stay reachable by their path but are left out of the tree and of previous/next, as the
spec's `hidden` says. Pure: works on an indexed `Tree`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.tree import Tree, page_flag


@dataclass(frozen=True)
class NavEntry:
    title: str
    url: str | None  # None: a group heading, or a link page whose target the site cannot show
    kind: str  # document | group | link
    current: bool = False
    open: bool = False  # the current page is this entry or below it
    external: bool = False
    children: list[NavEntry] = field(default_factory=list)


@dataclass(frozen=True)
class Found:
    """What a page path names: `page` to show, or `redirect` (a page path to send the reader to)."""

    page: Mapping[str, Any] | None = None
    redirect: str | None = None


def _git_root(tree: Tree) -> str:
    sync = tree.value.get("gitSync")
    root = str(sync.get("root") or "") if isinstance(sync, Mapping) else ""
    root = root[2:] if root.startswith("./") else root
    return f"{root.strip('/')}/" if root.strip("/") else ""


def _git_path(entry: Mapping[str, Any]) -> str | None:
    git = entry.get("git")
    path = git.get("path") if isinstance(git, Mapping) else None
    return path if isinstance(path, str) and path else None


def _first_document(pages: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    for entry in pages:
        if entry.get("type") == "document" and not page_flag(entry, "hidden"):
            return entry
        found = _first_document(list(entry.get("pages") or [])) if entry.get("type") == "group" else None
        if found is not None:
            return found
    return None


def find(tree: Tree, path: str) -> Found:
    """The page at `path` ("" is the first page), or a redirect, or nothing (`Found()`)."""
    path = path.strip("/")
    if not path:
        return Found(page=_first_document(tree.pages))
    located = tree.page_by_path(path)
    if located is not None:
        if located.entry.get("type") == "group":
            first = _first_document(list(located.entry.get("pages") or []))
            return Found(redirect=tree.path_of(first["id"])) if first else Found()
        return Found(page=located.entry)
    root = _git_root(tree)
    sync = tree.value.get("gitSync")
    redirects = sync.get("redirects") if isinstance(sync, Mapping) else None
    target = (redirects or {}).get(path) if isinstance(redirects, Mapping) else None
    wanted = f"{root}{target.strip('/')}" if isinstance(target, str) else f"{root}{path}"
    files = (wanted, f"{wanted}.md", f"{wanted}/README.md")
    for entry in _all(tree.pages):
        moved_to = tree.path_of(entry["id"])
        if moved_to is not None and moved_to != path and _git_path(entry) in files:
            return Found(redirect=moved_to)
    return Found()


def _all(pages: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    for entry in pages:
        out.append(entry)
        out += _all(list(entry.get("pages") or []))
    return out


def reading_order(tree: Tree) -> list[Mapping[str, Any]]:
    """The document pages a reader goes through with previous/next: tree order, hidden ones left out."""
    out: list[Mapping[str, Any]] = []

    def walk(pages: list[Mapping[str, Any]]) -> None:
        for entry in pages:
            if page_flag(entry, "hidden"):
                continue
            if entry.get("type") == "document":
                out.append(entry)
            if entry.get("type") in ("document", "group"):
                walk(list(entry.get("pages") or []))

    walk(tree.pages)
    return out


def neighbours(tree: Tree, page_id: str) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
    order = reading_order(tree)
    index = next((i for i, entry in enumerate(order) if entry["id"] == page_id), None)
    if index is None:
        return None, None
    return (order[index - 1] if index > 0 else None), (order[index + 1] if index + 1 < len(order) else None)


def navigation(tree: Tree, current_id: str | None, page_url: Any, link_url: Any) -> list[NavEntry]:
    """The sidebar: `page_url(path)` makes a page's URL, `link_url(entry)` a link page's (or None)."""

    def walk(pages: list[Mapping[str, Any]]) -> tuple[list[NavEntry], bool]:
        entries: list[NavEntry] = []
        any_open = False
        for entry in pages:
            kind = entry.get("type")
            if page_flag(entry, "hidden") or kind not in ("document", "group", "link"):
                continue
            children, below = walk(list(entry.get("pages") or []))
            current = entry["id"] == current_id
            title = str(entry.get("title") or "")
            if kind == "link":
                url, external = link_url(entry)
                entries.append(NavEntry(title, url, "link", external=external))
                continue
            url = page_url(tree.path_of(entry["id"]) or "") if kind == "document" else None
            entries.append(NavEntry(title, url, str(kind), current, current or below, children=children))
            any_open = any_open or current or below
        return entries, any_open

    return walk(tree.pages)[0]
