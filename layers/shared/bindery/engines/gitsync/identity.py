"""Ids for imported entries: an entry that was already in the space's tree keeps its id, so that links,
comments and page URLs survive a re-import; anything else gets a new one.

A page is the previous page at the same file: where Bindery would write it (`placement.place`, which is
its `git.path` while that is still right), else its recorded `git.path`, else the page at the same tree
path (pages without a file). Groups match by path, link pages by parent path and title, files and
reusable contents by file. Each previous id is given out once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.engines.content.tree import Tree
from bindery.engines.gitsync.placement import place
from bindery.platform.ids import new_id


def _git_path(entry: Mapping[str, Any]) -> str | None:
    git = entry.get("git")
    return str(git["path"]) if isinstance(git, Mapping) and git.get("path") else None


class Identities:
    def __init__(self, previous: Tree | None) -> None:
        self._used: set[str] = set()
        self._by_file: dict[str, list[str]] = {}  # ("page"|"file"|"content") + ":" + path -> ids
        self._by_tree_path: dict[str, str] = {}
        self._links: dict[str, list[str]] = {}
        self._types: dict[str, str] = {}
        self._groups: list[tuple[str, str, str]] = []  # id, title, slug
        if previous is None:
            return
        placement = place(previous)
        pages = [located.entry for pid in placement.pages if (located := previous.page(pid)) is not None]
        for kind, placed, entries in (
            ("page", placement.pages, pages),
            ("file", placement.files, previous.files),
            ("content", placement.contents, previous.reusable_contents),
        ):
            for entry in entries:
                self._by_file.setdefault(f"{kind}:{placed[entry['id']]}", []).append(entry["id"])
            for entry in entries:
                if _git_path(entry):
                    self._by_file.setdefault(f"{kind}:{_git_path(entry)}", []).append(entry["id"])
        self._index(previous.pages, "")

    def _index(self, pages: list[Mapping[str, Any]], prefix: str) -> None:
        for entry in pages:
            self._types[entry["id"]] = entry["type"]
            if entry["type"] == "group":
                self._groups.append((entry["id"], entry["title"], entry["slug"]))
            if entry["type"] == "link":
                self._links.setdefault(f"{prefix}|{entry['title']}", []).append(entry["id"])
            if entry["type"] in ("document", "group"):
                path = f"{prefix}{entry['slug']}"
                self._by_tree_path[path] = entry["id"]
                self._index(list(entry.get("pages") or []), f"{path}/")

    def _take(self, candidates: list[str]) -> str | None:
        found = next((c for c in candidates if c not in self._used), None)
        if found is not None:
            self._used.add(found)
        return found

    def _new(self) -> str:
        fresh = new_id()
        self._used.add(fresh)
        return fresh

    def document(self, file: str | None, tree_path: str) -> str:
        candidates = self._by_file.get(f"page:{file}", []) if file else []
        at_path = self._by_tree_path.get(tree_path)
        if at_path is not None and self._types.get(at_path) == "document":
            candidates = [*candidates, at_path]
        return self._take(candidates) or self._new()

    def group(self, title: str, slug: str) -> tuple[str, str]:
        """A group's id and slug: SUMMARY.md has only its title, so a previous group of the same title
        keeps its id and slug (else one at the slug the title gives)."""
        for group_id, group_title, group_slug in self._groups:
            if group_title == title and self._take([group_id]):
                return group_id, group_slug
        at_path = self._by_tree_path.get(slug)
        found = self._take([at_path]) if at_path and self._types.get(at_path) == "group" else None
        return found or self._new(), slug

    def link(self, parent_path: str, title: str) -> str:
        return self._take(self._links.get(f"{parent_path}|{title}", [])) or self._new()

    def file(self, path: str) -> str:
        return self._take(self._by_file.get(f"file:{path}", [])) or self._new()

    def content(self, path: str) -> str:
        return self._take(self._by_file.get(f"content:{path}", [])) or self._new()
