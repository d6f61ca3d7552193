"""Reading document nodes defensively: a stored document is JSON from clients, so any field may be
missing or of another type, and rendering must still not fail."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Node = Mapping[str, Any]


def data_of(node: Node) -> Mapping[str, Any]:
    data = node.get("data")
    return data if isinstance(data, Mapping) else {}


def children(node: Node) -> list[Node]:
    """The node's `nodes` that are objects (anything else is ignored)."""
    nodes = node.get("nodes")
    return [child for child in nodes if isinstance(child, Mapping)] if isinstance(nodes, list) else []


def fragment(node: Node, name: str) -> list[Node]:
    """The nodes of the node's fragment `name` (the `fragment` field), or []."""
    return next((children(item) for item in fragments(node) if item.get("fragment") == name), [])


def has_fragment(node: Node, name: str) -> bool:
    return any(item.get("fragment") == name for item in fragments(node))


def fragments(node: Node) -> list[Node]:
    out = node.get("fragments")
    return [item for item in out if isinstance(item, Mapping)] if isinstance(out, list) else []


def leaves(node: Node) -> list[tuple[str, list[Node]]]:
    """(text, marks) of each leaf of a text node."""
    out: list[tuple[str, list[Node]]] = []
    items = node.get("leaves")
    for leaf in items if isinstance(items, list) else []:
        if isinstance(leaf, Mapping) and isinstance(leaf.get("text"), str):
            marks = leaf.get("marks")
            out.append((leaf["text"], [m for m in marks if isinstance(m, Mapping)] if isinstance(marks, list)
                        else []))
    return out


def text_of(node: Node) -> str:
    """The text of a node and its children, in order (iterative: documents may nest without bound)."""
    parts: list[str] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if current.get("object") == "text":
            parts.extend(text for text, _marks in leaves(current))
        else:
            pending.extend(reversed(children(current)))
    return "".join(parts)


def string(value: Any) -> str | None:
    return value if isinstance(value, str) else None
