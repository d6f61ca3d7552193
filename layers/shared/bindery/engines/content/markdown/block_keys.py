"""Keys for a document's nodes, derived from their content, and the canonical form of a document.

A node's key is a hash of its content (keys excluded) and of how many nodes with the same content came
before it in the document. Parsing the same Markdown twice gives the same keys; editing one block
changes the keys of that block and of the blocks around it only (its ancestors, whose content changed,
and later identical copies), which is what a three-way merge of two edits of a page needs to match the
untouched blocks.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bindery.engines.content.markdown import model, tables
from bindery.engines.content.markdown.model import Node

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_KEYED = frozenset({"block", "inline", "fragment"})
_DUMPS = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode


def _encode(digest: bytes, width: int = 12) -> str:
    """Base-62 characters from digest bytes (~5.9 bits each: 12 characters carry ~71 bits)."""
    return "".join(_ALPHABET[byte % 62] for byte in digest[:width])


def strip_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: strip_keys(v) for k, v in value.items() if k != "key"}
    if isinstance(value, list):
        return [strip_keys(v) for v in value]
    return value


def _digest(node: Node, digests: dict[int, str]) -> str:
    """Content digest of a node, from its own fields and its children's digests (computed once)."""
    parts: dict[str, Any] = {}
    for name, value in node.items():
        if name == "key":
            continue
        if name in ("nodes", "fragments") and isinstance(value, list):
            parts[name] = [_digest(child, digests) for child in value]
        else:
            parts[name] = value
    text = _DUMPS(parts)
    digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
    digests[id(node)] = digest
    return digest


def assign_keys(document: Node) -> Node:
    """Set `key` on every block, inline and fragment of `document` (in place), and return it. Text
    nodes, whose key the spec makes optional, get none: they are rebuilt by every normalization."""
    digests: dict[int, str] = {}
    for node in document.get("nodes", []):
        _digest(node, digests)
    seen: dict[str, int] = {}
    used: set[str] = set()

    def visit(node: Node) -> None:
        if node.get("object") in _KEYED:
            digest = digests[id(node)]
            while True:
                occurrence = seen.get(digest, 0)
                seen[digest] = occurrence + 1
                key = _encode(hashlib.blake2b(f"{digest}:{occurrence}".encode(), digest_size=16).digest())
                if key not in used:
                    break
            used.add(key)
            node["key"] = key
        for child in [*node.get("nodes", []), *node.get("fragments", [])]:
            if child.get("object") != "text":
                visit(child)

    for node in document.get("nodes", []):
        visit(node)
    return document


def _canonical(node: Node) -> Node:
    node = dict(node)
    node.pop("key", None)
    if node.get("object") == "leaf":
        return model.leaf(node["text"], model.sorted_marks({model.mark_spec(m) for m in node["marks"]}))
    if node.get("object") == "text":
        return {"object": "text", "leaves": [_canonical(leaf) for leaf in node["leaves"]]}
    if "fragments" in node:
        node["fragments"] = [_canonical(f) for f in node["fragments"]]
    if "nodes" in node:
        children = [_canonical(child) for child in node["nodes"]]
        inline_content = any(child.get("object") in ("text", "inline") for child in children)
        node["nodes"] = model.normalize_inlines(children) if inline_content else children
    if node.get("type") == "table":
        node = tables.renumber(node)
    return node


def canonicalize(document: Node) -> Node:
    """The document as the parser would produce it: normalized inline content, renumbered table ids,
    keys from content. `markdown_to_document(document_to_markdown(d))` equals `canonicalize(d)` for
    every document that Markdown can express (see docs/markdown.md for what it cannot)."""
    nodes = [_canonical(node) for node in document.get("nodes", [])]
    return assign_keys({"object": "document", "data": dict(document.get("data", {})), "nodes": nodes})
