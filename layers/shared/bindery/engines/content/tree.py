"""A revision's tree: its pages (nested), files, reusable contents and variables, as one JSON value.

    {"pages": [page, ...], "files": [file, ...], "reusableContents": [content, ...], "variables": {...}}

A page entry holds the reference spec's page fields minus what is computed on read (`kind`, `path`,
`urls`): `id`, `type` (document | group | link | computed), `title`, and as they apply `slug`, `emoji`,
`icon`, `description`, `hidden`, `noIndex`, `noRobotsIndex`, `layout`, `cover`, `variables`, `git`,
`createdAt`, `updatedAt`, `target`/`href` (links), `computed`/`computedSeed`, `pages` (children of
document and group pages) and, for a document page with a body, `documentId`: the digest of its
document blob. A file entry: `id`, `name`, `contentType`, `size`, `dimensions`, `git` and `digest` (of
its bytes). A reusable content: `id`, `title`, `git`, `document` (digest of its document blob) and
from an import `original` (hint styles kept for the export, as a page's: bindery.engines.gitsync.page_fields).
An optional `gitSync` {`root`, `summary`, `redirects`} keeps what the repository's `.gitbook.yaml` said
beyond the defaults (bindery.engines.gitsync), so that an export writes it back.

Paths are the slugs from the top down, joined by "/": group pages take part, so a page `install` in the
group `getting-started` is at `getting-started/install`. Link and computed pages have no path.
This module does no I/O: `Tree` indexes a tree value; `validate` checks one before it is committed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Value = dict[str, Any]
PAGE_TYPES = ("document", "group", "link", "computed")
CHILD_TYPES = ("document", "link", "computed")  # what document and group pages may contain
DIGEST = re.compile(r"^[0-9a-f]{64}$")


class InvalidTree(ValueError):
    """A tree that must not be committed (duplicate ids, a group below the top level…)."""


def page_flag(entry: Mapping[str, Any], name: str) -> bool:
    """Whether a page's `hidden`, `noIndex` or `noRobotsIndex` is set: only the boolean true sets it. The
    spec types them as booleans; anything else stored (a hand edit, an old item) is served as left out
    (the response models take strict booleans) and so means unset on the published site as well."""
    return entry.get(name) is True


def empty_tree() -> Value:
    return {"pages": [], "files": [], "reusableContents": [], "variables": {}}


@dataclass(frozen=True)
class Located:
    """A page entry where the tree has it."""

    entry: Mapping[str, Any]
    path: str | None  # document and group pages only
    parent: str | None


class Tree:
    """An indexed, read-only view of a tree value (built once per tree and cached: trees never change)."""

    def __init__(self, value: Mapping[str, Any]) -> None:
        self.value = value
        self.pages: list[Mapping[str, Any]] = list(value.get("pages") or [])
        self.files: list[Mapping[str, Any]] = list(value.get("files") or [])
        self.reusable_contents: list[Mapping[str, Any]] = list(value.get("reusableContents") or [])
        self.variables: Mapping[str, Any] = value.get("variables") or {}
        self._pages: dict[str, Located] = {}
        self._paths: dict[str, Located] = {}
        self._index(self.pages, "", None)
        # Every page `type` the tree holds: reads that look for one kind of page (computed pages, on
        # every read of content) ask here instead of walking thousands of pages per request.
        self.page_types = frozenset(str(located.entry["type"]) for located in self._pages.values())
        self._files = {entry["id"]: entry for entry in self.files}
        self._contents = {entry["id"]: entry for entry in self.reusable_contents}

    def _index(self, pages: list[Mapping[str, Any]], prefix: str, parent: str | None) -> None:
        for entry in pages:
            slug = entry.get("slug") if entry["type"] in ("document", "group") else None
            path = f"{prefix}{slug}" if slug is not None else None
            located = Located(entry, path, parent)
            self._pages[entry["id"]] = located
            if path is not None:
                self._paths[path] = located
            children = entry.get("pages")
            if children:  # most pages have none: no call, no list
                self._index(list(children), f"{path}/" if path else prefix, entry["id"])

    @property
    def page_count(self) -> int:
        return len(self._pages)

    def page(self, page_id: str) -> Located | None:
        return self._pages.get(page_id)

    def page_by_path(self, path: str) -> Located | None:
        return self._paths.get(path.strip("/"))

    def path_of(self, page_id: str) -> str | None:
        located = self._pages.get(page_id)
        return located.path if located else None

    def file(self, file_id: str) -> Mapping[str, Any] | None:
        return self._files.get(file_id)

    def reusable_content(self, content_id: str) -> Mapping[str, Any] | None:
        return self._contents.get(content_id)

    def located_pages(self) -> Iterable[Located]:
        """Every page where the tree has it, parents before their children, in tree order."""
        return self._pages.values()

    def page_documents(self) -> dict[str, str]:
        """The document digest of every page that has one, by page id, in tree order."""
        return {page_id: located.entry["documentId"] for page_id, located in self._pages.items()
                if located.entry.get("documentId")}

    def content_documents(self) -> dict[str, str]:
        """The document digest of every reusable content that has one, by content id."""
        return {entry["id"]: entry["document"] for entry in self.reusable_contents if entry.get("document")}

    def blob_digests(self) -> list[str]:
        """Every document digest the tree names (pages, then reusable contents), each once."""
        digests = [
            located.entry["documentId"] for located in self._pages.values() if located.entry.get("documentId")
        ]
        digests += [entry["document"] for entry in self.reusable_contents if entry.get("document")]
        return list(dict.fromkeys(digests))


# --- building the next tree ----------------------------------------------------------------------------
def with_digests(
    value: Mapping[str, Any],
    pages: Mapping[str, str],
    contents: Mapping[str, str],
    files: Mapping[str, Mapping[str, Any]],
) -> Value:
    """A copy of `value` where the named pages get `documentId`, the named reusable contents `document`,
    and the named files the given fields (`digest`, `size`). Page entries are copied one level deep (their
    own fields are shared); the input is left as it was."""

    def pages_of(entries: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        out: list[Mapping[str, Any]] = []
        for entry in entries:
            changed = dict(entry)
            if entry["id"] in pages:
                changed["documentId"] = pages[entry["id"]]
            if entry.get("pages"):
                changed["pages"] = pages_of(list(entry["pages"]))
            out.append(changed)
        return out

    return {
        "pages": pages_of(list(value.get("pages") or [])),
        "files": [
            {**entry, **files[entry["id"]]} if entry["id"] in files else entry
            for entry in value.get("files") or []
        ],
        "reusableContents": [
            {**entry, "document": contents[entry["id"]]} if entry["id"] in contents else entry
            for entry in value.get("reusableContents") or []
        ],
        "variables": dict(value.get("variables") or {}),
        **({"gitSync": dict(value["gitSync"])} if value.get("gitSync") else {}),
    }


# --- validation -------------------------------------------------------------------------------------------
def _check_fields(entry: Mapping[str, Any], kind: str, slugs: set[str]) -> None:
    page_id = entry["id"]
    if not isinstance(entry.get("title"), str) or not entry["title"]:
        raise InvalidTree(f"page {page_id}: the title must be a non-empty string")
    if kind in ("document", "group"):
        slug = entry.get("slug")
        if not isinstance(slug, str) or not slug or "/" in slug:
            raise InvalidTree(f"page {page_id}: the slug must be a non-empty string without '/'")
        if slug in slugs:
            raise InvalidTree(f"page {page_id}: another page at the same level has the slug {slug!r}")
        slugs.add(slug)
    elif entry.get("pages"):
        raise InvalidTree(f"page {page_id}: a {kind} page has no child pages")
    if kind == "link" and not isinstance(entry.get("target"), Mapping):
        raise InvalidTree(f"page {page_id}: a link page needs a target")
    if kind == "computed" and not isinstance(entry.get("computed"), Mapping):
        raise InvalidTree(f"page {page_id}: a computed page needs its computed source")
    document = entry.get("documentId")
    if document is not None and (kind != "document" or not DIGEST.match(str(document))):
        raise InvalidTree(f"page {page_id}: documentId must be a blob digest, on a document page")


def _check_page(entry: Any, parent_type: str | None, seen: set[str], slugs: set[str]) -> None:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or not entry["id"]:
        raise InvalidTree("every page needs an id")
    page_id, kind = entry["id"], entry.get("type")
    if page_id in seen:
        raise InvalidTree(f"page {page_id}: the id is used twice")
    seen.add(page_id)
    if kind not in PAGE_TYPES or (parent_type is not None and kind not in CHILD_TYPES):
        raise InvalidTree(f"page {page_id}: a {kind} page cannot be {'nested' if parent_type else 'here'}")
    _check_fields(entry, kind, slugs)
    children = entry.get("pages") or []
    if not isinstance(children, list):
        raise InvalidTree(f"page {page_id}: pages must be a list")
    child_slugs: set[str] = set()
    for child in children:
        _check_page(child, kind, seen, child_slugs)


def _check_entries(entries: Any, what: str, fields: dict[str, type], exempt: Collection[str] = ()) -> None:
    """Each entry has an id of its own and the given fields (unless its id is `exempt`)."""
    if not isinstance(entries, list):
        raise InvalidTree(f"{what} must be a list")
    seen: set[str] = set()
    for entry in entries:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str) or entry["id"] in seen:
            raise InvalidTree(f"{what}: every entry needs an id of its own")
        seen.add(entry["id"])
        if entry["id"] in exempt:
            continue
        for name, kind in fields.items():
            field = entry.get(name)
            if not isinstance(field, kind) or (kind is int and isinstance(field, bool)):
                raise InvalidTree(f"{what} {entry['id']}: {name} is missing or of the wrong type")


def validate(value: Any, *, new_files: Collection[str] = ()) -> None:
    """Raise InvalidTree unless `value` is a tree every read can serve. Files named in `new_files` get
    their `digest` and `size` when committed, so they may lack them here."""
    if not isinstance(value, Mapping) or not isinstance(value.get("pages"), list):
        raise InvalidTree("pages must be a list")
    seen: set[str] = set()
    top_slugs: set[str] = set()
    for entry in value["pages"]:
        _check_page(entry, None, seen, top_slugs)
    _check_entries(value.get("files"), "file", {"name": str, "contentType": str}, ())
    _check_entries(value.get("files"), "file", {"size": int, "digest": str}, new_files)
    for entry in value.get("files") or []:
        if entry["id"] not in new_files and not DIGEST.match(entry["digest"]):
            raise InvalidTree(f"file {entry['id']}: digest must be the SHA-256 of its bytes")
    _check_entries(value.get("reusableContents"), "reusable content", {"title": str})
    for entry in value.get("reusableContents") or []:
        if entry.get("document") is not None and not DIGEST.match(str(entry["document"])):
            raise InvalidTree(f"reusable content {entry['id']}: document must be a blob digest")
    variables = value.get("variables")
    if not isinstance(variables, Mapping) or not all(
        isinstance(name, str) and isinstance(v, str | int | float) for name, v in variables.items()
    ):
        raise InvalidTree("variables must map names to strings, numbers or booleans")
    _check_git_sync(value.get("gitSync"))


def _check_git_sync(sync: Any) -> None:
    if sync is None:
        return
    redirects = sync.get("redirects", {}) if isinstance(sync, Mapping) else None
    if (not isinstance(sync, Mapping) or not isinstance(redirects, Mapping)
            or not all(isinstance(sync.get(k, ""), str) for k in ("root", "summary"))
            or not all(isinstance(s, str) and isinstance(t, str) for s, t in redirects.items())):
        raise InvalidTree("gitSync: root and summary must be paths, redirects must map paths to files")
