"""`builtin:openapi` computed pages, computed when content is read (docs/openapi.md, "API reference pages").

A revision stores such a page as `type: computed` with its source (`dependencies.spec.ref` naming a spec
of the space's organization by slug or id, `props.models`). Read with `computed` true (the API's default),
it is shown as what it computes from the spec's **latest version**: a document page (the API's info) whose
children are one document page per tag (its operations) and, with `props.models`, a "Models" page. Each
carries its own `computed` source (the official ComputedContentSourceDocumentOpenAPI, with the spec as the
resolved dependency `value`), and its document is rendered on demand (bindery.engines.openapi.reference). A
newly processed version shows in the next read without any commit. With `computed` false the page is shown
as stored.

Costs, per computed page read: the spec (one BatchGetItem, + one GetItem when named by id), its latest
version (one GetItem) and the version's files (one S3 GET, cached in the process: versions never change).
Generated pages' ids are derived from the computed page's id and the tag, so they are stable across reads
and versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from bindery.engines.content.templates import TITLE_MAX, unique_slug
from bindery.engines.content.tree import Tree
from bindery.engines.openapi import reference
from bindery.store import openapi_specs as spec_store

COMPUTED_TYPE = "builtin:openapi"
MODELS = "Models"


def is_openapi_page(entry: Mapping[str, Any]) -> bool:
    computed = entry.get("computed")
    return entry.get("type") == "computed" and isinstance(computed, Mapping) and \
        computed.get("type") == COMPUTED_TYPE


def _any(pages: list[Mapping[str, Any]]) -> bool:
    stack = list(pages)
    while stack:
        entry = stack.pop()
        if is_openapi_page(entry):
            return True
        stack.extend(entry.get("pages") or [])
    return False


@lru_cache(maxsize=32)
def _root_document(spec_id: str, version_id: str) -> Mapping[str, Any] | None:
    """The root document of a version (immutable, so cached by its ids)."""
    version = spec_store.get_version(spec_id, version_id)
    files = spec_store.get_version_files(version) if version is not None else None
    root = files.get(version.root) if files is not None and version is not None else None
    return root if isinstance(root, Mapping) else None


def _dependency(org_id: str, ref: Mapping[str, Any]) -> dict[str, Any] | None:
    """The resolved `value` of the spec dependency: the spec as it is now, or None (no such spec)."""
    spec = spec_store.get_spec_by_ref(org_id, str(ref.get("spec") or "")) if ref.get("spec") else None
    if spec is None:
        return None
    value = {"object": "openapi-spec", "id": spec.id, "slug": spec.slug}
    if spec.last_version:
        value["lastVersion"] = spec.last_version
    return value


def _source(ref: Mapping[str, Any], value: dict[str, Any] | None, props: dict[str, Any]) -> dict[str, Any]:
    return {"type": COMPUTED_TYPE, "dependencies": {"spec": {"ref": dict(ref), "value": value}},
            "props": props}


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _derived_id(page_id: str, kind: str, name: str) -> str:
    return f"{page_id}-{hashlib.sha256(f'{kind}:{name}'.encode()).hexdigest()[:12]}"


def _expanded(entry: Mapping[str, Any], org_id: str, taken: set[str]) -> dict[str, Any]:
    computed = entry["computed"]
    ref = _mapping(_mapping(_mapping(computed.get("dependencies")).get("spec")).get("ref"))
    value = _dependency(org_id, ref)
    props = _mapping(computed.get("props"))
    title = str(entry["title"])
    page = {key: item for key, item in entry.items() if key not in ("type", "computed", "pages", "slug")}
    stored = entry.get("slug")
    if isinstance(stored, str) and stored and stored not in taken:
        slug = stored  # the stored slug as it is, so the page keeps its path
        taken.add(slug)
    else:
        slug = unique_slug(title, taken)
    page.update(type="document", slug=slug, computed=_source(ref, value, {"doc": "info", "page": title}))
    root = _root_document(value["id"], value["lastVersion"]) if value and value.get("lastVersion") else None
    children: list[dict[str, Any]] = []
    if root is not None:
        slugs: set[str] = set()
        names = [(tag, {"doc": "operations", "page": tag}) for tag in reference.tags(root)]
        if props.get("models") and reference.schema_names(root):
            names.append((MODELS, {"doc": "models"}))
        for name, child_props in names:
            children.append({"id": _derived_id(str(entry["id"]), str(child_props["doc"]), name),
                             "type": "document", "title": name[:TITLE_MAX], "slug": unique_slug(name, slugs),
                             "computed": _source(ref, value, child_props)})
    page["pages"] = children
    return page


def _expand_level(pages: list[Mapping[str, Any]], org_id: str) -> list[Mapping[str, Any]]:
    taken = {str(entry["slug"]) for entry in pages
             if entry.get("type") in ("document", "group") and entry.get("slug") is not None}
    out: list[Mapping[str, Any]] = []
    for entry in pages:
        if is_openapi_page(entry):
            out.append(_expanded(entry, org_id, taken))
        elif entry.get("pages"):
            out.append({**entry, "pages": _expand_level(list(entry["pages"]), org_id)})
        else:
            out.append(entry)
    return out


def expand(tree: Tree, org_id: str) -> Tree:
    """The tree as read with `computed` true: the same object when it has no `builtin:openapi` page."""
    if "computed" not in tree.page_types or not _any(tree.pages):
        return tree
    return Tree({**tree.value, "pages": _expand_level(tree.pages, org_id)})


def document(computed: Mapping[str, Any]) -> dict[str, Any] | None:
    """The document of a page generated by `expand` (None for any other computed document)."""
    if computed.get("type") != COMPUTED_TYPE:
        return None
    spec = ((computed.get("dependencies") or {}).get("spec") or {})
    value, ref = spec.get("value"), spec.get("ref") or {}
    props = computed.get("props") or {}
    if not value:
        return reference.notice_document(f"There is no OpenAPI specification {ref.get('spec')!r} in this "
                                         "organization.")
    root = _root_document(value["id"], value["lastVersion"]) if value.get("lastVersion") else None
    if root is None:
        return reference.notice_document(f"The OpenAPI specification {value['slug']!r} has no processed "
                                         "version yet.")
    return reference.page_document(root, str(value["slug"]), props)
