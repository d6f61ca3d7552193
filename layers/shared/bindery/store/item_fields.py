"""Which attribute of a store's dataclass is kept under which attribute of its DynamoDB item, and the one
loop that writes and reads them (`ItemFields`).

The item attribute names are the stored format: items written by every earlier version must still read,
so a name here is never changed, only added. What an item holds besides its fields (keys, index
attributes, `type`, values derived for filters such as `titleSearch`) stays with the entity's `to_item`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bindery.store.table import Item


class ItemFields:
    """(dataclass attribute, item attribute) pairs. An attribute whose value is None is left out of the
    item (absent reads back as the dataclass default), except those in `keep_none`, where null means
    something of its own; `string_sets` are lists kept as DynamoDB string sets (which cannot be empty, so
    an empty list is left out; read back sorted); `omit_empty` are left out when empty."""

    __slots__ = ("keep_none", "omit_empty", "pairs", "string_sets")

    def __init__(self, *pairs: tuple[str, str], keep_none: Iterable[str] = (),
                 string_sets: Iterable[str] = (), omit_empty: Iterable[str] = ()) -> None:
        self.pairs = pairs
        self.keep_none = frozenset(keep_none)
        self.string_sets = frozenset(string_sets)
        self.omit_empty = frozenset(omit_empty)

    def _stored(self, attr: str, value: Any) -> Any:
        """The value as the item keeps it; None: not kept."""
        if attr in self.string_sets:
            return set(value) or None
        if attr in self.omit_empty and not value:
            return None
        return value

    def attributes(self, entity: object) -> Item:
        """The item attributes of `entity`'s fields."""
        item: Item = {}
        for attr, name in self.pairs:
            value = self._stored(attr, getattr(entity, attr))
            if value is not None or attr in self.keep_none:
                item[name] = value
        return item

    def update(self, entity: object, *, leave_out: Iterable[str] = ()) -> tuple[Item, tuple[str, ...]]:
        """What an UpdateExpression sets and removes so that the item's attributes are those of `entity`
        (but for the fields in `leave_out`, which other writes own): (SETs, REMOVEs)."""
        skipped = frozenset(leave_out)
        sets = self.attributes(entity)
        for attr, name in self.pairs:
            if attr in skipped:
                sets.pop(name, None)
        removes = tuple(name for attr, name in self.pairs if attr not in skipped and name not in sets)
        return sets, removes

    def changes(self, before: object, after: object) -> tuple[Item, tuple[str, ...]]:
        """What an UpdateExpression sets and removes to turn the item of `before` (as read) into that of
        `after`: only the attributes that differ, so that the domain says what changed with a changed copy
        of the dataclass (`dataclasses.replace`) and never names an attribute."""
        old, new = self.attributes(before), self.attributes(after)
        sets = {name: value for name, value in new.items() if name not in old or old[name] != value}
        return sets, tuple(name for name in old if name not in new)

    def values(self, item: Item) -> dict[str, Any]:
        """The dataclass keyword arguments of the fields the item holds (absent ones keep their
        defaults)."""
        values = {attr: item[name] for attr, name in self.pairs if name in item}
        for attr in self.string_sets & values.keys():
            values[attr] = sorted(values[attr] or [])
        return values
