"""Three-way merge of a tree's flat collections: files and reusable contents (lists of entries with
ids) and variables (a map of names), with the page rules: field by field, edited-vs-deleted and
added-twice-differently are conflicts, list order merges like sibling pages."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from bindery.engines.content.merge.fields import (
    ADDED_TWICE,
    EDITED_DELETED,
    MISSING,
    merge_fields,
    merge_presence,
    merge_value,
)
from bindery.engines.content.merge.order import merge_order

Entry = dict[str, Any]
PRESENCE_CONFLICTS = {ADDED_TWICE: "added on both sides with different content",
                      EDITED_DELETED: "edited on one side, deleted on the other"}


@dataclass
class EntryMerge:
    entries: list[Entry]
    bodies: dict[str, tuple[Any, Any, Any]]  # id -> base, ours, theirs value of the body field
    conflicts: list[tuple[str, str, str]]  # (id, label, reason)


def merge_entries(base: list[Mapping[str, Any]], ours: list[Mapping[str, Any]],
                  theirs: list[Mapping[str, Any]], *, label: str, body: str | None = None,
                  wording: Mapping[str, str] | None = None) -> EntryMerge:
    """Entries by id. `label` names the field shown in conflicts (a file's `name`); `body` a field
    merged by the caller when both sides changed it (a reusable content's `document`); `wording`
    how a conflicting field is described (`digest` → "the file's content")."""
    maps = [{entry["id"]: dict(entry) for entry in entries} for entries in (base, ours, theirs)]
    b_map, o_map, t_map = maps
    result = EntryMerge([], {}, [])
    merged: dict[str, Entry] = {}
    skip: Collection[str] = (body,) if body else ()
    for entry_id in dict.fromkeys([*o_map, *t_map, *b_map]):
        b, o, t = b_map.get(entry_id), o_map.get(entry_id), t_map.get(entry_id)
        name = str((o or t or b or {}).get(label, entry_id))

        def conflict(reason: str, entry_id: str = entry_id, name: str = name) -> None:
            result.conflicts.append((entry_id, name, reason))

        if b is None or o is None or t is None:
            kept, problem = merge_presence(b, o, t)
            if problem:
                conflict(PRESENCE_CONFLICTS[problem])
            if kept is not None:
                merged[entry_id] = kept
        else:
            fields, conflicting = merge_fields(b, o, t, skip=skip)
            for field in conflicting:
                conflict(f"both sides changed {(wording or {}).get(field, f'the {field}')}")
            if body:
                value, both = merge_value(b.get(body), o.get(body), t.get(body))
                if both:
                    result.bodies[entry_id] = (b.get(body), o.get(body), t.get(body))
                elif value is not None:
                    fields[body] = value
            merged[entry_id] = fields
    ordered = merge_order(list(b_map), list(o_map), list(t_map), merged)
    result.entries = [merged[entry_id] for entry_id in ordered.order]
    # Files and reusable contents are shown by name or in a list: their order carries no meaning a
    # user would fight over, so two sides moving one differently is no conflict.
    return result


def merge_variables(base: Mapping[str, Any], ours: Mapping[str, Any],
                    theirs: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Variables by name (a variable removed is a value too); the names both sides set differently."""
    merged: dict[str, Any] = {}
    conflicts: list[str] = []
    for name in dict.fromkeys([*ours, *theirs, *base]):
        value, conflict = merge_value(*(version.get(name, MISSING) for version in (base, ours, theirs)))
        if conflict:
            conflicts.append(name)
        if value is not MISSING:
            merged[name] = value
    return merged, conflicts
