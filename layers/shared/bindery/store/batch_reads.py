"""Reads of many items by key, whatever their kind, for requests that need several at once."""

from __future__ import annotations

from collections.abc import Iterable

from bindery.keys import Key
from bindery.store import table
from bindery.store.table import Item


def items_by_key(wanted: Iterable[Key]) -> dict[tuple[str, str], Item]:
    """The items that exist among `wanted`, indexed by (PK, SK): 100 keys per BatchGetItem."""
    unique = list({(key["PK"], key["SK"]): key for key in wanted}.values())
    found: dict[tuple[str, str], Item] = {}
    for start in range(0, len(unique), 100):
        for item in table.batch_get(unique[start:start + 100]):
            found[(item["PK"], item["SK"])] = item
    return found


def ref(key: Key) -> tuple[str, str]:
    """The index `items_by_key` files an item under."""
    return key["PK"], key["SK"]
