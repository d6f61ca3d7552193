"""Content references (`ContentRef`) to and from the URLs written in Markdown.

Parsing hands every link target to `resolve_link` and every image, file or spec source to
`resolve_file`; each returns a `ContentRef` (a page, anchor, file…) or None to keep a URL reference.
Rendering asks `page_path` for the URL of any reference other than a URL or a file, and `file_path` for
a file's path; without them (or when they return None) such references are written as GitBook writes an
unresolved one, `broken-reference` (a file reference falls back to its id).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.markdown.model import ContentRef

LinkResolver = Callable[[str], Mapping[str, Any] | None]
PagePath = Callable[[Mapping[str, Any]], str | None]
FilePath = Callable[[str], str | None]

BROKEN = "broken-reference"


@dataclass
class Resolvers:
    resolve_link: LinkResolver | None = None
    resolve_file: LinkResolver | None = None
    links: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def link(self, url: str) -> ContentRef:
        self.links.append(url)
        resolved = self.resolve_link(url) if self.resolve_link is not None else None
        return dict(resolved) if resolved is not None else {"kind": "url", "url": url}

    def file(self, src: str) -> ContentRef:
        """A reference to a file or, unresolved, to a URL (images, OpenAPI specs)."""
        self.files.append(src)
        resolved = self.resolve_file(src) if self.resolve_file is not None else None
        return dict(resolved) if resolved is not None else {"kind": "url", "url": src}

    def file_only(self, src: str) -> ContentRef:
        """A reference that must be a file (file and drawing blocks): unresolved, the path is the id."""
        ref = self.file(src)
        return ref if ref["kind"] == "file" else {"kind": "file", "file": src}

    def file_id(self, src: str) -> str:
        return str(self.file_only(src)["file"])

    def reusable(self, src: str) -> ContentRef:
        self.links.append(src)
        resolved = self.resolve_link(src) if self.resolve_link is not None else None
        if resolved is not None and resolved.get("kind") == "reusable-content":
            return dict(resolved)
        return {"kind": "reusable-content", "reusableContent": src}


@dataclass(frozen=True)
class Paths:
    page_path: PagePath | None = None
    file_path: FilePath | None = None

    def url(self, ref: Mapping[str, Any]) -> str:
        kind = ref.get("kind")
        if kind == "url":
            return str(ref["url"])
        if kind == "file":
            return self.file(str(ref["file"]))
        if kind == "anchor" and "page" not in ref and "space" not in ref:
            return "#" + str(ref["anchor"])
        found = self.page_path(ref) if self.page_path is not None else None
        return found if found is not None else BROKEN

    def file(self, file_id: str) -> str:
        found = self.file_path(file_id) if self.file_path is not None else None
        return found if found is not None else file_id

    def reusable(self, ref: Mapping[str, Any]) -> str:
        found = self.page_path(ref) if self.page_path is not None else None
        return found if found is not None else str(ref.get("reusableContent", BROKEN))
