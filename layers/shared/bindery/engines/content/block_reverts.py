"""Reverting single blocks of a page's document to their state in another revision (`revert_page` with
`block` in a change request's content batch).

Blocks are named by their `key`, among the document's top-level blocks (the level at which documents
are compared and merged: content.merge.documents). For each key, in the order the blocks have in the
older document:

* a block the older document lacks (added since) is removed;
* a block the current document lacks (deleted since) is restored;
* a block both have (modified or moved since) is reset to its older content;

and a restored or reset block goes back to where it was: right after the nearest block before it in the
older document that the result still has, or first when there is none. Every other block stays as it
is. A key neither document has at the top level is an error naming it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any


class UnknownBlock(ValueError):
    """A key names no top-level block of either document."""


def _blocks(document: Any) -> list[dict[str, Any]]:
    nodes = document.get("nodes") if isinstance(document, Mapping) else None
    return [dict(node) for node in nodes or [] if isinstance(node, Mapping)]


def revert_blocks(current: Any, older: Any, keys: Sequence[str]) -> dict[str, Any]:
    """`current` with the blocks named by `keys` as they are in `older` (both may be None: empty)."""
    now = _blocks(current)
    then = _blocks(older)
    then_keys = [block.get("key") for block in then]
    known = {block.get("key") for block in now} | set(then_keys)
    for key in keys:
        if key not in known:
            raise UnknownBlock(key)
    wanted = set(keys)
    result = [block for block in now if block.get("key") not in wanted]
    for position, block in enumerate(then):
        if block.get("key") not in wanted:
            continue
        present = {kept.get("key") for kept in result}
        before = next((then_keys[i] for i in range(position - 1, -1, -1) if then_keys[i] in present), None)
        at = 0 if before is None else 1 + [kept.get("key") for kept in result].index(before)
        result.insert(at, copy.deepcopy(block))
    base = dict(current) if isinstance(current, Mapping) else {"object": "document", "data": {}}
    base["nodes"] = result
    return base
