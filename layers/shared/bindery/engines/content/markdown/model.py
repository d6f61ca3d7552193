"""Constructors for the nodes of a GitBook JSON document, and their canonical form.

A document is plain JSON (`dict`/`list`/`str`...): these helpers only build the shapes of the reference
spec's `Document*` schemas, always the same way, so that equal content gives equal JSON.

Canonical form (what the parser produces and what round trips are compared against):
- every block and inline carries `data` and, where the spec defines it, `isVoid`;
- a leaf's marks are sorted in `MARK_ORDER`; adjacent leaves with the same marks are merged;
- inline content follows Slate's normalization, as GitBook's editor stores it: text nodes around and
  between inline nodes (an empty one where nothing else is), adjacent text nodes merged.
"""

from __future__ import annotations

from typing import Any

Node = dict[str, Any]
ContentRef = dict[str, Any]

# Also the order marks open in, outermost first, as GitBook writes them: `~~_**`code`**_~~`.
MARK_ORDER = ("color", "strikethrough", "italic", "bold", "code", "keyboard", "superscript", "subscript")
_MARK_RANK = {name: rank for rank, name in enumerate(MARK_ORDER)}

VOID_BLOCKS = frozenset(
    {
        "divider",
        "image",
        "file",
        "drawing",
        "embed",
        "math",
        "expandable",
        "table",
        "swagger",
        "openapi-operation",
        "openapi-schemas",
        "openapi-webhook",
        "content-ref",
        "integration",
        "reusable-content",
    }
)
VOID_INLINES = frozenset(
    {
        "emoji",
        "icon",
        "expression",
        "inline-math",
        "inline-image",
        "mention",
        "button",
    }
)
COLORS = frozenset(
    {
        "default",
        "green",
        "blue",
        "red",
        "orange",
        "yellow",
        "purple",
        "$primary",
        "$info",
        "$success",
        "$warning",
        "$danger",
    }
)

# A mark while parsing: ("bold",) ... or ("color", text, background).
MarkSpec = tuple[str, ...]


def mark(spec: MarkSpec) -> Node:
    if spec[0] == "color":
        return {"object": "mark", "type": "color", "data": {"text": spec[1], "background": spec[2]}}
    return {"object": "mark", "type": spec[0]}


def mark_spec(node: Node) -> MarkSpec:
    if node["type"] == "color":
        return ("color", node["data"]["text"], node["data"]["background"])
    return (str(node["type"]),)


def order_specs(specs: frozenset[MarkSpec] | set[MarkSpec]) -> list[MarkSpec]:
    return sorted(specs, key=lambda spec: (_MARK_RANK[spec[0]], spec))


def sorted_marks(specs: frozenset[MarkSpec] | set[MarkSpec]) -> list[Node]:
    return [mark(spec) for spec in order_specs(specs)]


def leaf(text: str, marks: list[Node] | None = None) -> Node:
    return {"object": "leaf", "text": text, "marks": marks or []}


def text(value: str = "", marks: list[Node] | None = None) -> Node:
    return {"object": "text", "leaves": [leaf(value, marks)]}


def block(
    type_: str,
    nodes: list[Node] | None = None,
    data: dict[str, Any] | None = None,
    *,
    fragments: list[Node] | None = None,
) -> Node:
    node: Node = {"object": "block", "type": type_, "isVoid": type_ in VOID_BLOCKS, "data": data or {}}
    if nodes is not None:
        node["nodes"] = nodes
    if fragments is not None:
        node["fragments"] = fragments
    return node


def inline(
    type_: str,
    data: dict[str, Any],
    nodes: list[Node] | None = None,
    *,
    fragments: list[Node] | None = None,
) -> Node:
    node: Node = {"object": "inline", "type": type_, "isVoid": type_ in VOID_INLINES, "data": data}
    if nodes is not None:
        node["nodes"] = nodes
    if fragments is not None:
        node["fragments"] = fragments
    return node


def fragment(name: str, nodes: list[Node], type_: str | None = None) -> Node:
    node: Node = {"object": "fragment", "fragment": name, "nodes": nodes}
    if type_ is not None:
        node["type"] = type_
    return node


def paragraph(nodes: list[Node] | None = None, data: dict[str, Any] | None = None) -> Node:
    return block("paragraph", normalize_inlines(nodes or []), data)


def _merge_leaves(leaves: list[Node]) -> list[Node]:
    merged: list[Node] = []
    for item in leaves:
        if item["text"] == "":
            continue
        if merged and merged[-1]["marks"] == item["marks"]:
            merged[-1] = leaf(merged[-1]["text"] + item["text"], merged[-1]["marks"])
        else:
            merged.append(leaf(item["text"], item["marks"]))
    return merged or [leaf("")]


def normalize_inlines(nodes: list[Node]) -> list[Node]:
    """Slate normalization: merged text nodes, one (maybe empty) text node around every inline."""
    out: list[Node] = []
    pending: list[Node] = []
    for node in nodes:
        if node["object"] == "text":
            pending.extend(node["leaves"])
            continue
        out.append({"object": "text", "leaves": _merge_leaves(pending)})
        pending = []
        # In place: the parser keeps references to annotations until their bodies are known.
        if node["type"] == "annotation":
            node["nodes"] = [
                {
                    "object": "text",
                    "leaves": _merge_leaves(
                        [lf for child in node["nodes"] for lf in child.get("leaves", [])]
                    ),
                }
            ]
        elif "nodes" in node:
            node["nodes"] = normalize_inlines(node["nodes"])
        out.append(node)
    out.append({"object": "text", "leaves": _merge_leaves(pending)})
    return out


def plain_text(nodes: list[Node]) -> str:
    """The text of inline content (void inlines count as nothing)."""
    parts: list[str] = []
    for node in nodes:
        if node["object"] == "text":
            parts.extend(lf["text"] for lf in node["leaves"])
        elif node["object"] == "inline" and "nodes" in node:
            parts.append(plain_text(node["nodes"]))
    return "".join(parts)


def is_empty_inlines(nodes: list[Node]) -> bool:
    return all(node["object"] == "text" and plain_text([node]) == "" for node in nodes)


def image_block(
    data: dict[str, object], caption: str | None = None, caption_nodes: list[Node] | None = None
) -> Node:
    """An image block, its caption (given as text or as blocks) in the `caption` fragment."""
    fragments = []
    if caption_nodes:
        fragments = [fragment("caption", caption_nodes)]
    elif caption:
        fragments = [fragment("caption", [paragraph([text(caption)])])]
    return block("image", data=data, fragments=fragments)
