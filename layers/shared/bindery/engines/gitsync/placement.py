"""Where each page, file and reusable content of a tree is written in the repository.

An entry keeps its `git.path` (so that an export changes as few files as possible) while that path
still says the same thing: a page's file must give its slug (`install.md` for `install`, a folder's
`README.md` for the folder's name), a file's its name. Otherwise, and for entries never synced, GitBook's
layout: a page goes in its parent's folder (`<slug>.md`, or `<slug>/README.md` when it has children), a
group's pages in a folder named after the group, files in `.gitbook/assets/<name>` (`name (1).png` on a
clash, as GitBook does), reusable contents in `.gitbook/includes/<slug>.md`.

The importer places the previous tree the same way, to give an exported entry back its id.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.tree import Tree
from bindery.engines.gitsync import layout


@dataclass
class Placement:
    root: str
    summary: str
    pages: dict[str, str] = field(default_factory=dict)  # document page id -> path (project-relative)
    files: dict[str, str] = field(default_factory=dict)
    contents: dict[str, str] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)

    def take(self, path: str) -> bool:
        if path in self.taken or path == self.summary:
            return False
        self.taken.add(path)
        return True


def sync_config(tree: Tree) -> Mapping[str, Any]:
    """The tree's `gitSync` key: `.gitbook.yaml`'s root, summary and redirects (defaults left out)."""
    value = tree.value.get("gitSync")
    return value if isinstance(value, Mapping) else {}


def _git_path(entry: Mapping[str, Any]) -> str | None:
    git = entry.get("git")
    path = git.get("path") if isinstance(git, Mapping) else None
    return path if isinstance(path, str) and path else None


def _kept(entry: Mapping[str, Any], root: str, matches: bool, placement: Placement) -> str | None:
    path = _git_path(entry)
    if path is None or not path.startswith(root) or not matches:
        return None
    return path if placement.take(path) else None


def _page_pass(placement: Placement, pages: list[Mapping[str, Any]], folder: str, keep: bool) -> None:
    for entry in pages:
        kind, children = entry["type"], list(entry.get("pages") or [])
        if kind == "group":
            _page_pass(placement, children, f"{folder}{entry['slug']}/", keep)
            continue
        if kind != "document":
            continue
        page_id = entry["id"]
        if page_id not in placement.pages:
            if keep:
                git = _git_path(entry) or ""
                inner = git[len(placement.root) :] if git.startswith(placement.root) else ""
                matches = (inner.endswith(".md") and layout.slug_of(inner) == entry["slug"]
                           and not inner.startswith(".gitbook/"))
                found = _kept(entry, placement.root, matches, placement)
            else:
                found = _fresh_page(placement, folder, entry["slug"], bool(children))
            if found is not None:
                placement.pages[page_id] = found
        path = placement.pages.get(page_id)
        below = layout.child_directory(path) if path else f"{folder}{entry['slug']}/"
        _page_pass(placement, children, below, keep)


def _fresh_page(placement: Placement, folder: str, slug: str, has_children: bool) -> str:
    path = f"{folder}{slug}/README.md" if has_children else f"{folder}{slug}.md"
    if placement.take(path):
        return path
    # The natural path is another page's (kept) file: a folder README reads back with the same slug.
    candidate = f"{folder}{slug}/README.md" if not has_children else f"{folder}{slug}.md"
    index = 1
    while not placement.take(candidate):
        index += 1
        candidate = f"{folder}{slug}-{index}.md"  # a different slug: unavoidable, and said in the docs
    return candidate


def _fresh_asset(placement: Placement, directory: str, name: str) -> str:
    stem, ext = posixpath.splitext(name)
    candidate, index = f"{directory}{name}", 0
    while not placement.take(candidate):
        index += 1
        candidate = f"{directory}{stem} ({index}){ext}"
    return candidate


def place(tree: Tree) -> Placement:
    config = sync_config(tree)
    root = str(config.get("root") or "")
    placement = Placement(root, root + str(config.get("summary") or layout.SUMMARY))
    placement.taken.add(layout.CONFIG_FILE)
    _page_pass(placement, tree.pages, root, keep=True)
    _page_pass(placement, tree.pages, root, keep=False)
    for entry in tree.files:
        git = _git_path(entry)
        found = _kept(entry, root, git is not None and posixpath.basename(git) == entry["name"], placement)
        if found is not None:
            placement.files[entry["id"]] = found
    for entry in tree.files:
        if entry["id"] not in placement.files:
            name = str(entry["name"]).replace("/", "-") or "file"
            placement.files[entry["id"]] = _fresh_asset(placement, root + layout.ASSETS, name)
    for entry in tree.reusable_contents:
        path = _git_path(entry)
        if path is not None and path.startswith(root + layout.INCLUDES) and placement.take(path):
            placement.contents[entry["id"]] = path
    for entry in tree.reusable_contents:
        if entry["id"] not in placement.contents:
            name = layout.slugify(str(entry["title"])) + ".md"
            placement.contents[entry["id"]] = _fresh_asset(placement, root + layout.INCLUDES, name)
    return placement
