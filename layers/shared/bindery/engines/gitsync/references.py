"""Links and file sources in a page's Markdown <-> content references, relative to the page's file.

Reading, a relative URL is resolved from the page's folder (percent-decoded): `other.md#anchor`, a folder
(`../parser/`, meaning its README.md) or a path without `.md` become page or anchor references, files
become file references, `.gitbook/includes/*.md` reusable content. Anything else stays a URL reference,
as written. Writing does the reverse, with percent-encoded relative paths.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.gitsync import layout
from bindery.engines.gitsync.placement import Placement

Ref = dict[str, Any]


@dataclass
class RepositoryIndex:
    """What a path in the repository is, while importing."""

    files: Mapping[str, bytes]
    pages: dict[str, str] = field(default_factory=dict)  # path -> page id (the file's page)
    assets: dict[str, str] = field(default_factory=dict)  # path -> file id
    contents: dict[str, str] = field(default_factory=dict)  # path -> reusable content id
    add_file: Callable[[str], str] | None = None  # a referenced file outside .gitbook/assets -> its id
    warnings: list[str] = field(default_factory=list)

    def page_at(self, target: str) -> str | None:
        candidates = [layout.README] if not target else [target, f"{target}.md", f"{target}/{layout.README}"]
        return next((self.pages[c] for c in candidates if c in self.pages), None)

    def file_at(self, target: str) -> str | None:
        if target in self.assets:
            return self.assets[target]
        if target in self.files and not target.endswith(".md") and self.add_file is not None:
            return self.add_file(target)
        return None


@dataclass
class PageResolvers:
    """`resolve_link` / `resolve_file` for one file of the repository."""

    index: RepositoryIndex
    path: str

    def link(self, url: str) -> Ref | None:
        if not url or layout.is_external(url):
            return None
        if url.startswith("#"):
            return {"kind": "anchor", "anchor": url[1:]} if len(url) > 1 else None
        relative, anchor = layout.split_url(url)
        target = layout.join(layout.directory(self.path), relative)
        if target is None:
            return None
        if target in self.index.contents:
            return {"kind": "reusable-content", "reusableContent": self.index.contents[target]}
        page = self.index.page_at(target)
        if page is not None:
            return {"kind": "anchor", "anchor": anchor, "page": page} if anchor else {
                "kind": "page", "page": page}
        file_id = self.index.file_at(target)
        return {"kind": "file", "file": file_id} if file_id is not None else None

    def file(self, src: str) -> Ref | None:
        if not src or layout.is_external(src) or src.startswith("data:"):
            return None
        relative, _anchor = layout.split_url(src)
        target = layout.join(layout.directory(self.path), relative)
        file_id = self.index.file_at(target) if target is not None else None
        if file_id is None:
            self.index.warnings.append(f"{self.path}: {src} is not a file of the repository (kept as a URL)")
            return None
        return {"kind": "file", "file": file_id}


@dataclass(frozen=True)
class PagePaths:
    """`page_path` / `file_path` for one file written by the exporter."""

    placement: Placement
    path: str

    def _url(self, target: str | None) -> str | None:
        return layout.relative_url(layout.directory(self.path), target) if target is not None else None

    def page_path(self, ref: Mapping[str, Any]) -> str | None:
        kind = ref.get("kind")
        if kind == "reusable-content":
            return self._url(self.placement.contents.get(str(ref.get("reusableContent"))))
        if kind not in ("page", "anchor") or "space" in ref or "page" not in ref:
            return None  # other spaces, users, collections… have no path in this repository
        url = self._url(self.placement.pages.get(str(ref["page"])))
        if url is None or kind == "page":
            return url
        return f"{url}#{ref['anchor']}"

    def file_path(self, file_id: str) -> str | None:
        return self._url(self.placement.files.get(file_id))
