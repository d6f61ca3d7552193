"""The fluentd documentation (tests/corpus/fluentd-docs) as a space revision, for search and link
tests: one document page per Markdown file (SUMMARY.md aside), flat, and every asset as a file.

Links are resolved the way Git Sync reads a repository: a relative path to a Markdown file (a folder
means its README.md) is a page reference, `#anchor` an anchor reference, a path to an asset a file
reference; anything else stays a URL, as written (a broken one when it is relative)."""

from __future__ import annotations

import mimetypes
import posixpath
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from bindery.engines.content.markdown import markdown_to_document
from tests.data_paths import FLUENTD_CORPUS

CORPUS = FLUENTD_CORPUS


@dataclass
class Corpus:
    tree: dict[str, Any]
    documents: dict[str, Any]
    files: dict[str, bytes]
    page_ids: dict[str, str]  # by path in the repository
    file_ids: dict[str, str]


def markdown_files() -> list[str]:
    assert CORPUS.is_dir(), f"the corpus is missing: {CORPUS.resolve()}"
    return sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.md")
                  if ".git" not in p.parts and p.name != "SUMMARY.md")


def asset_files() -> list[str]:
    found = (p.relative_to(CORPUS) for p in CORPUS.rglob("*") if p.is_file() and p.suffix != ".md")
    return sorted(path.as_posix() for path in found if path.parts[0] in (".gitbook", "images"))


def resolve(base: str, target: str, known: set[str]) -> str | None:
    """The repository path a relative link or source names, if the repository has it."""
    path = posixpath.normpath(posixpath.join(posixpath.dirname(base), unquote(target)))
    for candidate in (path, posixpath.join(path, "README.md")):
        if candidate in known:
            return candidate
    return None


def load() -> Corpus:
    pages = markdown_files()
    assets = asset_files()
    page_ids = {path: f"p{i}" for i, path in enumerate(pages)}
    file_ids = {path: f"f{i}" for i, path in enumerate(assets)}
    known = set(page_ids) | set(file_ids)

    def resolvers(base: str) -> dict[str, Any]:
        def link(url: str) -> dict[str, Any] | None:
            if urlsplit(url).scheme or url.startswith("//"):
                return None
            path, _, anchor = url.partition("#")
            if not path:
                return {"kind": "anchor", "anchor": anchor} if anchor else None
            found = resolve(base, path, known)
            if found in page_ids:
                ref = {"kind": "anchor", "anchor": anchor} if anchor else {"kind": "page"}
                return {**ref, "page": page_ids[found]}
            return {"kind": "file", "file": file_ids[found]} if found in file_ids else None

        def file(src: str) -> dict[str, Any] | None:
            found = None if urlsplit(src).scheme else resolve(base, src, known)
            return {"kind": "file", "file": file_ids[found]} if found in file_ids else None

        return {"resolve_link": link, "resolve_file": file}

    entries, documents = [], {}
    for path in pages:
        parsed = markdown_to_document((CORPUS / path).read_text(), **resolvers(path))
        page_id = page_ids[path]
        slug = path.removesuffix(".md").replace("/", "-").replace(".", "-").lower()
        entries.append({"id": page_id, "type": "document", "title": parsed.title or path, "slug": slug,
                        "pages": [], "git": {"oid": "a" * 40, "path": path}})
        documents[page_id] = parsed.document
    file_entries = [{"id": file_ids[path], "name": posixpath.basename(path),
                     "contentType": mimetypes.guess_type(path)[0] or "application/octet-stream"}
                    for path in assets]
    tree = {"pages": entries, "files": file_entries, "reusableContents": [], "variables": {}}
    files = {file_ids[path]: (CORPUS / path).read_bytes() for path in assets}
    return Corpus(tree, documents, files, page_ids, file_ids)
