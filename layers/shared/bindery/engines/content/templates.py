"""The page sets of space templates (docs/templates.md), and adding them to a tree. No I/O.

`page_set(template_id, spec_ref=…, spec=…)` gives the pages a template adds, as `NewPage`s (title,
document, children); `add_pages(tree, pages, …)` appends them after the tree's top-level pages with fresh
ids and slugs that collide with no sibling's (`install`, `install-2`…), and returns the documents to
commit with them.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# The package loads markdown-it on first use: routes that never convert do not pay for it.
from bindery.engines.content import markdown as markdown_engine
from bindery.engines.content.tree_edits import slugify

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
TITLE_MAX = 100
UNTAGGED = "Endpoints"


@dataclass(frozen=True)
class NewPage:
    title: str
    document: dict[str, Any] | None  # None: an empty page
    children: list[NewPage] = field(default_factory=list)
    computed: dict[str, Any] | None = None  # a computed page's source (it has no document or children)


def _markdown(title: str, markdown: str, *children: NewPage) -> NewPage:
    return NewPage(title, markdown_engine.markdown_to_document(markdown).document, list(children))


def getting_started() -> list[NewPage]:
    return [
        _markdown("Introduction", (
            "Welcome to this space. Say what it documents and who it is for, then point readers to the "
            "pages that follow.\n\n"
            "{% hint style=\"info\" %}\nReplace this text with your own: every page here is yours to "
            "edit, move or delete.\n{% endhint %}\n\n"
            "## Where to go next\n\n* **Quickstart**: the shortest path to a first result.\n"
            "* **Guides**: one task per page, step by step.\n")),
        _markdown("Quickstart", (
            "Get going in a few minutes.\n\n## Install\n\n```bash\n# the command that installs it\n```\n\n"
            "## Configure\n\nDescribe the one setting every reader needs.\n\n"
            "## Try it\n\nShow the smallest example that works.\n")),
        _markdown("Guides", "Each guide below covers one task.\n",
                  _markdown("Your first guide", (
                      "Say what the reader will have achieved at the end.\n\n"
                      "1. The first step.\n2. The second step.\n3. Check the result.\n"))),
    ]


# --- OpenAPI ---------------------------------------------------------------------------------------------
def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:12]


def _text_block(kind: str, text: str) -> dict[str, Any]:
    leaf = {"object": "leaf", "text": text, "marks": []}
    return {"object": "block", "type": kind, "key": _key(kind, text), "isVoid": False, "data": {},
            "nodes": [{"object": "text", "leaves": [leaf]}]}


def _operation_block(ref: Mapping[str, Any], path: str, method: str) -> dict[str, Any]:
    return {"object": "block", "type": "swagger", "key": _key(path, method), "isVoid": True,
            "data": {"ref": dict(ref), "path": path, "method": method}}


def operations_by_tag(spec: Mapping[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """(path, method) of every operation, grouped under its first tag, in the spec's order; untagged
    operations under "Endpoints". The spec's top-level `tags` order the groups when it lists them."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for tag in spec.get("tags") or []:
        if isinstance(tag, Mapping) and isinstance(tag.get("name"), str) and tag["name"].strip():
            groups[tag["name"].strip()] = []
    paths = spec.get("paths")
    for path, item in (paths.items() if isinstance(paths, Mapping) else []):
        if not isinstance(item, Mapping):
            continue
        for method in METHODS:
            operation = item.get(method)
            if not isinstance(operation, Mapping):
                continue
            tags = [tag for tag in operation.get("tags") or [] if isinstance(tag, str) and tag.strip()]
            groups.setdefault(tags[0].strip() if tags else UNTAGGED, []).append((str(path), method))
    return {tag: operations for tag, operations in groups.items() if operations}


def openapi_pages(ref: Mapping[str, Any], spec: Mapping[str, Any]) -> list[NewPage]:
    """An "API reference" page introducing the API, with one child page per tag holding an OpenAPI block
    (`swagger`, referencing `ref`) for each of its operations."""
    found = spec.get("info")
    info: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    name = str(info.get("title") or "").strip()
    intro = [_text_block("paragraph", f"The reference of {name}." if name else "The API reference.")]
    if isinstance(info.get("description"), str) and info["description"].strip():
        intro.append(_text_block("paragraph", info["description"].strip()))
    children = [NewPage(tag[:TITLE_MAX], {"object": "document", "data": {},
                                          "nodes": [_operation_block(ref, path, method)
                                                    for path, method in operations]})
                for tag, operations in operations_by_tag(spec).items()]
    return [NewPage("API reference", {"object": "document", "data": {}, "nodes": intro}, children)]


def page_set(template_id: str, *, spec_ref: Mapping[str, Any] | None = None,
             spec: Mapping[str, Any] | None = None) -> list[NewPage]:
    if template_id == "openapi":
        if spec_ref is None or spec is None:
            raise ValueError("the openapi template needs spec_ref and spec")
        return openapi_pages(spec_ref, spec)
    if template_id == "getting-started":
        return getting_started()
    return [NewPage("Untitled", None)]


# --- adding pages to a tree ------------------------------------------------------------------------------
def unique_slug(title: str, taken: set[str]) -> str:
    """The title's slug, with a number added when a sibling has it; added to `taken`."""
    base = slugify(title)
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    taken.add(slug)
    return slug


def _entries(pages: Sequence[NewPage], taken: set[str], new_id: Callable[[], str], now: str,
             documents: dict[str, Any]) -> list[dict[str, Any]]:
    entries = []
    for page in pages:
        entry: dict[str, Any] = {"id": new_id(), "type": "document", "title": page.title,
                                 "slug": unique_slug(page.title, taken), "createdAt": now, "updatedAt": now,
                                 "pages": _entries(page.children, set(), new_id, now, documents)}
        if page.computed is not None:
            # The slug is kept: the page is shown as a document at that path when computed on read.
            entry.update(type="computed", computed=page.computed, pages=[])
        elif page.document is not None:
            documents[entry["id"]] = page.document
        entries.append(entry)
    return entries


def add_pages(tree: Mapping[str, Any], pages: Sequence[NewPage], *, new_id: Callable[[], str],
              now: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the next tree value, the new pages' documents by page id); `tree` is left as it was."""
    value = copy.deepcopy(dict(tree))
    top = list(value.get("pages") or [])
    taken = {str(entry["slug"]) for entry in top if entry.get("slug") is not None}
    documents: dict[str, Any] = {}
    value["pages"] = top + _entries(pages, taken, new_id, now, documents)
    return value, documents
