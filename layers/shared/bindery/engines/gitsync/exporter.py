"""A revision's content -> the files of a Git Sync repository (the project directory's part of it).

Written: `.gitbook.yaml` (root, structure, redirects), SUMMARY.md, one Markdown file per document page
(front matter, `# Title`, the body), the files, and `.gitbook/includes/*.md` for reusable contents; where
each goes is `placement.place`. Importing the result gives the same tree and documents back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from bindery.engines.content.markdown import document_to_markdown
from bindery.engines.content.tree import Tree
from bindery.engines.gitsync import layout, page_fields
from bindery.engines.gitsync.placement import Placement, place, sync_config
from bindery.engines.gitsync.references import PagePaths
from bindery.engines.gitsync.summary import Entry, Part, render_summary

BROKEN = "broken-reference"  # GitBook's URL for a reference it cannot write
EMPTY: Mapping[str, Any] = {"object": "document", "data": {}, "nodes": []}
FileValue = TypeVar("FileValue")  # a file's bytes, or whatever stands for them (transport.StoredBlob)


def _git_path(entry: Mapping[str, Any]) -> str | None:
    git = entry.get("git")
    return str(git["path"]) if isinstance(git, Mapping) and git.get("path") else None


class _Exporter(Generic[FileValue]):
    def __init__(self, tree: Tree, documents: Mapping[str, Any], reusable_documents: Mapping[str, Any],
                 files: Mapping[str, FileValue]) -> None:
        self.tree, self.documents = tree, documents
        self.reusable_documents, self.files = reusable_documents, files
        self.placement: Placement = place(tree)
        self.base = layout.directory(self.placement.summary)
        self.out: dict[str, bytes | FileValue] = {}
        self.readme: str | None = None

    def _ref_url(self, paths: PagePaths, ref: Mapping[str, Any]) -> str | None:
        if ref.get("kind") == "url":
            return str(ref["url"])
        if ref.get("kind") == "file":
            return paths.file_path(str(ref["file"]))
        return paths.page_path(ref)

    def _document(self, entry: Mapping[str, Any], children: list[Entry]) -> Entry:
        path = self.placement.pages[entry["id"]]
        document = self.documents.get(entry["id"]) or EMPTY
        paths = PagePaths(self.placement, path)
        meta = page_fields.to_front_matter(entry, lambda ref: self._ref_url(paths, ref))
        bare = (_git_path(entry) is None and not document.get("nodes") and not meta
                and entry["slug"] == layout.slugify(entry["title"]))
        if bare:  # an empty page that SUMMARY.md names without a file (as GitBook reads `* Title`)
            return Entry(entry["title"], None, children)
        text = document_to_markdown(document, title=entry["title"], front_matter=meta,
                                    page_path=paths.page_path, file_path=paths.file_path,
                                    hint_styles=page_fields.hint_styles(entry))
        self.out[path] = text.encode()
        self.readme = self.readme or path
        return Entry(entry["title"], layout.relative_url(self.base, path), children)

    def _entries(self, pages: list[Mapping[str, Any]]) -> list[Entry]:
        entries = []
        for entry in pages:
            if entry["type"] == "document":
                entries.append(self._document(entry, self._entries(list(entry.get("pages") or []))))
            elif entry["type"] == "link":
                url = self._ref_url(PagePaths(self.placement, self.placement.summary), entry["target"])
                entries.append(Entry(entry["title"], url or BROKEN))
            # computed pages have no Markdown form: GitBook computes them, Bindery stores them only
        return entries

    def _summary(self) -> list[Part]:
        parts: list[Part] = []
        for entry in self.tree.pages:
            if entry["type"] == "group":
                anchor = entry["slug"] if entry["slug"] != layout.slugify(entry["title"]) else None
                parts.append(Part(entry["title"], self._entries(list(entry.get("pages") or [])), anchor))
                continue
            if not parts or parts[-1].title is not None:
                parts.append(Part(None))
            parts[-1].entries += self._entries([entry])
        return parts

    def _redirects(self) -> dict[str, str]:
        """`.gitbook.yaml`'s redirects, following the pages whose file moved since they were read."""
        root = self.placement.root
        moved = {}
        for page_id, path in self.placement.pages.items():
            located = self.tree.page(page_id)
            old = _git_path(located.entry) if located else None
            if old is not None and old != path:
                moved[old] = path
        redirects = sync_config(self.tree).get("redirects") or {}
        out = {}
        for source, target in redirects.items():
            joined = layout.join(root, str(target))
            new = moved.get(joined) if joined is not None else None
            out[str(source)] = new[len(root) :] if new is not None else str(target)
        return out

    def run(self) -> dict[str, bytes | FileValue]:
        root = self.placement.root
        self.out[self.placement.summary] = render_summary(self._summary()).encode()
        for entry in self.tree.files:
            self.out[self.placement.files[entry["id"]]] = self.files[entry["id"]]
        for entry in self.tree.reusable_contents:
            path = self.placement.contents[entry["id"]]
            paths = PagePaths(self.placement, path)
            document = self.reusable_documents.get(entry["id"]) or EMPTY
            text = document_to_markdown(document, front_matter={"title": entry["title"]},
                                        page_path=paths.page_path, file_path=paths.file_path,
                                        hint_styles=page_fields.hint_styles(entry))
            self.out[path] = text.encode()
        readme = self.readme[len(root) :] if self.readme else None
        summary = self.placement.summary[len(root) :]
        self.out[layout.CONFIG_FILE] = layout.render_config(root, readme, summary, self._redirects())
        return self.out


def export_repository(tree: Tree, documents: Mapping[str, Any], reusable_documents: Mapping[str, Any],
                      files: Mapping[str, FileValue]) -> dict[str, bytes | FileValue]:
    """Every file of the project directory for this content (paths relative to it). `documents` by page
    id (a page missing from it is written empty), `reusable_documents` by content id, `files` (the bytes
    of every file of the tree, or what stands for them: they are passed through as they are) by file
    id."""
    return _Exporter(tree, documents, reusable_documents, files).run()
