"""A specification as files: the root document and every file its `$ref`s name, read into one
filesystem (docs/openapi.md).

A `$ref` with a file part (`schemas/Pet.yaml#/Pet`, `../common/Error.yaml`) is resolved against the URL
of the file it appears in, and fetched only from the root's origin (scheme, host and port): a spec may
not make Bindery fetch from anywhere else. Every fetch goes through `fetch` (bindery.platform.remote_files:
the URL
policy, checked redirects, a timeout and a size cap); a text source has no URL, so it cannot name other
files. Files are keyed by their path relative to the root document's directory, as the `$ref`s of a
checked-out copy would name them.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from bindery.engines.openapi.documents import parse, require_spec
from bindery.engines.openapi.errors import ProcessingFailed, SpecError

MAX_FILES = 200
Fetch = Callable[[str], bytes]


@dataclass(frozen=True)
class Filesystem:
    root: str  # the root document's key in `files`
    files: dict[str, Any]  # parsed documents by path relative to the root's directory
    root_bytes: bytes  # the root document as read, served at a version's `url`
    urls: dict[str, str] = field(default_factory=dict)  # each file's absolute URL (URL sources only)

    def digest(self) -> str:
        """The same for the same documents, however they were formatted: an unchanged spec makes no
        new version."""
        canonical = json.dumps({"root": self.root, "files": self.files}, sort_keys=True,
                               separators=(",", ":"), default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()

    def by_url(self) -> dict[str, Any]:
        return {url: self.files[name] for name, url in self.urls.items()}


def _refs(document: Any) -> Iterator[str]:
    """Every `$ref` string in a document, depth first (iterative: a deep spec cannot exhaust the stack)."""
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield ref
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port


def _text_name(data: bytes) -> str:
    return "openapi.json" if data.lstrip()[:1] in (b"{", b"[") else "openapi.yaml"


def from_text(data: bytes) -> Filesystem:
    """A spec given as text: one file, which may not refer to others."""
    name = _text_name(data)
    root = require_spec(parse(data, name), name)
    for ref in _refs(root):
        if ref.split("#", 1)[0]:
            raise ProcessingFailed("PARSE_ERROR", [SpecError(
                f"{name}: the reference {ref!r} names another file, which a spec given as text cannot "
                "reach; give the spec by URL", "EXTERNAL_REF")])
    return Filesystem(root=name, files={name: root}, root_bytes=data)


def from_url(url: str, fetch: Fetch) -> Filesystem:
    """The spec at `url` and every file its references name, each fetched once."""
    data = fetch(url)
    root_path = unquote(urlsplit(url).path) or "/"
    name = posixpath.basename(root_path) or _text_name(data)
    base_dir = posixpath.dirname(root_path) if posixpath.basename(root_path) else root_path
    files: dict[str, Any] = {name: require_spec(parse(data, name), name)}
    urls = {name: url.split("#", 1)[0]}
    pending = [name]
    while pending:
        current = pending.pop()
        for ref in _refs(files[current]):
            target_part = ref.split("#", 1)[0]
            if not target_part:
                continue
            target = urljoin(urls[current], target_part)
            if _origin(target) != _origin(url):
                raise ProcessingFailed("FETCH_ERROR", [SpecError(
                    f"{current}: the reference {ref!r} is not on the spec's own host; Bindery fetches "
                    "referenced files only from there", "EXTERNAL_HOST")])
            key = posixpath.relpath(unquote(urlsplit(target).path), base_dir)
            if key in files:
                continue
            if len(files) >= MAX_FILES:
                raise ProcessingFailed("PARSE_ERROR", [SpecError(
                    f"the spec refers to more than {MAX_FILES} files", "TOO_MANY_FILES")])
            files[key] = parse(fetch(target), key)
            urls[key] = target
            pending.append(key)
    return Filesystem(root=name, files=files, root_bytes=data, urls=urls)
