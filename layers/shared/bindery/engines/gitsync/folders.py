"""The table of contents GitBook infers when a repository has no SUMMARY.md: the readme first, then the
Markdown files and folders below the root, sorted by name; a folder's README.md is the folder's page
(a folder without one is an empty page named after it), the files and folders in it its children."""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from urllib.parse import quote

from bindery.engines.gitsync import layout
from bindery.engines.gitsync.summary import Entry, Part


def _entries(folder: str, root: str, markdown: Collection[str], skip: Collection[str]) -> list[Entry]:
    names: set[str] = set()
    for path in markdown:
        if path.startswith(folder) and path not in skip:
            names.add(path[len(folder) :].split("/", 1)[0] + ("/" if "/" in path[len(folder) :] else ""))
    entries = []
    for name in sorted(names, key=lambda n: (n.rstrip("/").removesuffix(".md").lower(), n)):
        if not name.endswith("/"):
            if name != layout.README:
                entries.append(Entry("", quote(f"{folder}{name}"[len(root) :], safe="/")))
            continue
        sub = f"{folder}{name}"
        readme = f"{sub}{layout.README}"
        children = _entries(sub, root, markdown, skip)
        if readme in markdown and readme not in skip:
            entries.append(Entry("", quote(readme[len(root) :], safe="/"), children))
        elif children:
            entries.append(Entry(posixpath.basename(name.rstrip("/")), None, children))
    return entries


def outline(paths: Collection[str], root: str, readme: str, summary: str) -> list[Part]:
    """The parts (one, untitled) for the project files `paths`; targets are relative to `root`."""
    markdown = {
        path for path in paths
        if path.startswith(root) and path.endswith(".md") and not path[len(root) :].startswith(".")
        and "/." not in path[len(root) :]
    }
    entries = [Entry("", quote(readme[len(root) :], safe="/"))] if readme in markdown else []
    entries += _entries(root, root, markdown, {readme, summary})
    return [Part(None, entries)] if entries else []
