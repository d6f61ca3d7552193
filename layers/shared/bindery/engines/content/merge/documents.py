"""Three-way merge of two edits of one JSON document (the reference spec's `JSONDocument`), block by block.

Blocks are matched by `key` within each list of blocks (a document's `nodes`, a container block's
`nodes`, a block's `fragments`), recursively:

- a block only one side changed takes that side's version; one both sides changed identically is fine;
- a block both sides changed differently: its own fields (`type`, `data`…) merge field by field and
  its child blocks merge recursively; a leaf block (inline content: text is not keyed) or a field both
  sides set differently is a conflict naming the block;
- a block changed on one side and removed on the other, or added on both sides with the same key and
  different content, is a conflict;
- the order of each list merges like sibling pages (content.merge.order). With keys derived from
  content (Markdown imports), an edited block gets a new key: both sides rewriting the same block is
  then seen as both removing it and inserting different blocks in its place, which is a conflict too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.engines.content.merge.fields import (
    ADDED_TWICE,
    EDITED_DELETED,
    merge_fields,
    merge_presence,
    merge_value,
)
from bindery.engines.content.merge.order import merge_order

Node = Mapping[str, Any]
EMPTY_DOCUMENT: dict[str, Any] = {"object": "document", "data": {}, "nodes": []}
_KEYED = ("block", "fragment")
_CHILDREN = ("nodes", "fragments")


def _keyed(nodes: Any) -> bool:
    """Whether a list holds keyed blocks or fragments only (inline content does not: its text nodes
    have no key, so a block's inline content merges as one value)."""
    return isinstance(nodes, list) and all(
        isinstance(n, Mapping) and n.get("object") in _KEYED and isinstance(n.get("key"), str) for n in nodes
    )


class _Merger:
    def __init__(self) -> None:
        self.reasons: list[str] = []

    def conflict(self, reason: str) -> None:
        if reason not in self.reasons:
            self.reasons.append(reason)

    def node(self, base: Node, ours: Node, theirs: Node) -> Node:
        if theirs in (ours, base):
            return ours
        if ours == base:
            return theirs
        key = ours.get("key")
        merged, conflicts = merge_fields(base, ours, theirs, skip=_CHILDREN)
        if conflicts:
            self.conflict(f"both sides edited block '{key}'")
            return ours
        for name in _CHILDREN:
            b, o, t = (node.get(name) for node in (base, ours, theirs))
            present = [v for v in (b, o, t) if v is not None]
            if not present:
                continue
            if all(_keyed(v) for v in present):
                merged[name] = self.children(b or [], o or [], t or [])
                continue
            value, conflict = merge_value(b, o, t)
            if conflict:
                self.conflict(f"both sides edited block '{key}'")
                return ours
            if value is not None:
                merged[name] = value
        return merged

    def children(self, base: list[Node], ours: list[Node], theirs: list[Node]) -> list[Node]:
        b_map, o_map, t_map = ({n["key"]: n for n in nodes} for nodes in (base, ours, theirs))
        merged: dict[str, Node] = {}
        for key in dict.fromkeys([*o_map, *t_map, *b_map]):
            b, o, t = b_map.get(key), o_map.get(key), t_map.get(key)
            if b is None or o is None or t is None:
                kept, problem = merge_presence(b, o, t)
                if problem == ADDED_TWICE:
                    self.conflict(f"both sides added block '{key}' with different content")
                elif problem == EDITED_DELETED:
                    self.conflict(f"block '{key}' was edited on one side and deleted on the other")
                if kept is not None:
                    merged[key] = kept
            else:
                merged[key] = self.node(b, o, t)
        ordered = merge_order(list(b_map), list(o_map), list(t_map), merged)
        for key in ordered.contested:
            self.conflict(f"both sides moved block '{key}' to different places")
        for key in ordered.replaced:
            self.conflict(f"both sides replaced block '{key}'")
        return [merged[key] for key in ordered.order]


def _keys(value: Any, found: list[str]) -> None:
    if isinstance(value, Mapping):
        if value.get("object") in _KEYED and isinstance(value.get("key"), str):
            found.append(value["key"])
        for name in _CHILDREN:
            _keys(value.get(name), found)
    elif isinstance(value, list):
        for item in value:
            _keys(item, found)


def merge_documents(base: Node | None, ours: Node | None,
                    theirs: Node | None) -> tuple[dict[str, Any], list[str]]:
    """The merged document and why it conflicts (one reason per conflicting block; empty: it merged).
    A missing document (a page without a body) is the empty document."""
    b, o, t = (dict(doc) if doc is not None else dict(EMPTY_DOCUMENT) for doc in (base, ours, theirs))
    merger = _Merger()
    merged, conflicts = merge_fields(b, o, t, skip=("nodes",))
    for name in conflicts:
        merger.conflict(f"both sides changed the document's {name}")
    nodes = [v.get("nodes") or [] for v in (b, o, t)]
    if all(_keyed(v) for v in nodes):
        merged["nodes"] = merger.children(*nodes)
    else:  # not a keyed document (should not happen): merge it as one value
        value, conflict = merge_value(*nodes)
        if conflict:
            merger.conflict("both sides edited the document")
        merged["nodes"] = value
    found: list[str] = []
    _keys(merged["nodes"], found)
    seen: set[str] = set()
    for key in found:
        if key in seen:  # moved into two different containers, one on each side
            merger.conflict(f"both sides moved block '{key}' to different places")
        seen.add(key)
    return merged, merger.reasons
