"""Shared by the content tests: a resolver/path pair that map references both ways, and schema checks."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema

from bindery.engines.content.markdown import document_to_markdown, markdown_to_document
from bindery.engines.content.markdown.parse import ParsedPage

SCHEMA_FILE = Path(__file__).with_name("document-schema.json")
GOLDEN_DIR = Path(__file__).with_name("golden")
ASSETS = ".gitbook/assets/"
INCLUDES = ".gitbook/includes/"


# --- references: pages are `<id>.md`, files live in .gitbook/assets, reusable content in .gitbook/includes
def resolve_link(url: str) -> dict[str, Any] | None:
    if url.startswith(ASSETS):
        return {"kind": "file", "file": url[len(ASSETS) :]}
    if url.startswith(INCLUDES) and url.endswith(".md"):
        return {"kind": "reusable-content", "reusableContent": url[len(INCLUDES) : -3]}
    if url.startswith("#") and len(url) > 1:
        return {"kind": "anchor", "anchor": url[1:]}
    path, _, anchor = url.partition("#")
    if path.endswith(".md") and "/" not in path and ":" not in path:
        page = path[:-3]
        return (
            {"kind": "anchor", "anchor": anchor, "page": page} if anchor else {"kind": "page", "page": page}
        )
    return None


def resolve_file(src: str) -> dict[str, Any] | None:
    return {"kind": "file", "file": src[len(ASSETS) :]} if src.startswith(ASSETS) else None


def page_path(ref: Mapping[str, Any]) -> str | None:
    kind = ref["kind"]
    if kind == "page":
        return f"{ref['page']}.md"
    if kind == "anchor" and "page" in ref:
        return f"{ref['page']}.md#{ref['anchor']}"
    if kind == "reusable-content":
        return f"{INCLUDES}{ref['reusableContent']}.md"
    return None


def file_path(file_id: str) -> str:
    return ASSETS + file_id


def parse(text: str) -> ParsedPage:
    return markdown_to_document(text, resolve_link=resolve_link, resolve_file=resolve_file)


def render(page: ParsedPage | dict[str, Any], **kwargs: Any) -> str:
    if isinstance(page, ParsedPage):
        kwargs = {"title": page.title, "front_matter": page.front_matter, **kwargs}
        page = page.document
    return document_to_markdown(page, page_path=page_path, file_path=file_path, **kwargs)


# --- the spec's document schemas -------------------------------------------------------------------
def _leaves(schemas: dict[str, Any], ref: str) -> list[str]:
    """The concrete schemas behind a `$ref` to a `oneOf` of `$ref`s (followed recursively)."""
    name = ref.rsplit("/", 1)[-1]
    options = schemas[name].get("oneOf")
    if options and all(set(o) <= {"$ref", "title"} for o in options):
        return [leaf for o in options for leaf in _leaves(schemas, o["$ref"])]
    return [name]


def _signature(schema: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
    props = schema.get("properties", {})
    objects = props.get("object", {}).get("enum", [])
    types = props.get("type", {}).get("enum", [])
    if len(objects) != 1:
        return None
    return objects[0], tuple(types)


def _dispatch(schemas: dict[str, Any], value: Any) -> Any:
    """Rewrites each `oneOf` over document nodes into a lookup by the node's `object` and `type`: the
    same verdict for these discriminated unions (a node type matches one option only), in linear time;
    the plain `oneOf` tries every option recursively, which takes minutes on a large page."""
    if isinstance(value, list):
        return [_dispatch(schemas, item) for item in value]
    if not isinstance(value, dict):
        return value
    value = {key: _dispatch(schemas, item) for key, item in value.items()}
    options = value.get("oneOf")
    if not options or not all("$ref" in o for o in options):
        return value
    leaves = [leaf for o in options for leaf in _leaves(schemas, o["$ref"])]
    signatures = [_signature(schemas[leaf]) for leaf in leaves]
    if None in signatures or len(
        {(o, t) for sig in signatures if sig for o, ts in [sig] for t in ts or [""]}
    ) != sum(len(sig[1]) or 1 for sig in signatures if sig):
        return value
    table: dict[str, str] = {}
    for leaf, (obj, types) in zip(leaves, signatures, strict=True):  # type: ignore[misc]
        for type_ in types or [""]:
            table[f"{obj}:{type_}"] = f"#/components/schemas/{leaf}"
    return {**{k: v for k, v in value.items() if k != "oneOf"}, "x-dispatch": table}


def _dispatch_keyword(validator: Any, table: dict[str, str], instance: Any, _schema: Any) -> Any:
    """`x-dispatch`: validate a node against the one schema its `object` and `type` select."""
    if not isinstance(instance, dict):
        yield jsonschema.ValidationError(f"{instance!r} is not a document node")
        return
    key = f"{instance.get('object')}:{instance.get('type', '') if instance.get('object') != 'text' else ''}"
    if key not in table:
        yield jsonschema.ValidationError(f"{key} is not one of {sorted(table)}")
        return
    yield from validator.descend(instance, {"$ref": table[key]})


_FastValidator = jsonschema.validators.extend(jsonschema.Draft7Validator, {"x-dispatch": _dispatch_keyword})


@functools.cache
def _validator(name: str, fast: bool = True) -> jsonschema.protocols.Validator:
    components = json.loads(SCHEMA_FILE.read_text())["components"]
    schemas = components["schemas"]
    # A defect of the spec: `PlainObject` (integration props) has no `"type": "object"`, so a string
    # prop matches both it and `string` in the prop value's `oneOf`, and no scalar prop ever validates.
    schemas["PlainObject"] = {**schemas["PlainObject"], "type": "object"}
    if fast:
        components = {"schemas": {key: _dispatch(schemas, schema) for key, schema in schemas.items()}}
    root = {"$ref": f"#/components/schemas/{name}", "components": components}
    return _FastValidator(root) if fast else jsonschema.Draft7Validator(root)


# Blocks that GitBook places at the top level of a page although the spec's `DocumentBlocksTopLevels`
# (0.146.0) omits them: such a document is checked block by block against `DocumentBlock`.
OFF_SPEC_TOP_LEVEL = frozenset({"if", "columns"})


def schema_errors(document: dict[str, Any], *, fast: bool = True) -> list[str]:
    """Why `document` does not validate against the spec's `JSONDocument` (empty: it does)."""
    nodes = document.get("nodes", [])
    blocks = [n for n in nodes if n.get("type") in OFF_SPEC_TOP_LEVEL]
    shell = {**document, "nodes": [n for n in nodes if n.get("type") not in OFF_SPEC_TOP_LEVEL]}
    errors = [
        f"{list(e.absolute_path)}: {e.message[:300]}"
        for e in _validator("JSONDocument", fast).iter_errors(shell)
    ]
    for node in blocks:
        errors += [
            f"{node['type']}: {e.message[:300]}" for e in _validator("DocumentBlock", fast).iter_errors(node)
        ]
    return errors
