"""Three-way merge of single values and of an entry's fields (page metadata, file and reusable-content
fields, variables): a field one side changed takes that side's value; both sides changing it to the
same value is no conflict; both changing it differently is one, except for the bookkeeping fields in
`RESOLVED`, which always resolve (they describe an edit, not content a user wrote)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, Final


class _Missing:
    """A field or variable one version does not have (distinct from a null value)."""

    # A debugging aid no merge reads: `make mutation` leaves it alone.
    def __repr__(self) -> str:  # pragma: no mutate block
        return "MISSING"


MISSING: Final = _Missing()


def _latest(ours: Any, theirs: Any) -> Any:
    stamps = [value for value in (ours, theirs) if isinstance(value, str)]
    return max(stamps) if stamps else MISSING


def _earliest(ours: Any, theirs: Any) -> Any:
    stamps = [value for value in (ours, theirs) if isinstance(value, str)]
    return min(stamps) if stamps else MISSING


def _neither(_ours: Any, _theirs: Any) -> Any:
    # Git metadata names the blob each side synced; the merged content matches neither.
    return MISSING


# How a field both sides changed differently resolves without a conflict (ISO timestamps compare as
# strings). Each is symmetric, so the merge does not depend on which side is "ours".
RESOLVED: Final[Mapping[str, Callable[[Any, Any], Any]]] = {
    "updatedAt": _latest,
    "createdAt": _earliest,
    "git": _neither,
}


def merge_value(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """The merged value and whether the two sides conflict (then the value is `ours`)."""
    if theirs in (ours, base):
        return ours, False
    if ours == base:
        return theirs, False
    return ours, True


ADDED_TWICE = "added"  # both sides added the item, differently
EDITED_DELETED = "edited-deleted"  # one side edited the item, the other deleted it


def merge_presence(base: Any, ours: Any, theirs: Any) -> tuple[Any, str | None]:
    """An id'd item (entry, block) missing on at least one side (None): what the merge keeps (None:
    nothing) and the conflict, if any (ADDED_TWICE, EDITED_DELETED). An item both sides added alike,
    or that one side deleted and the other left as it was, merges cleanly."""
    if base is None:
        kept = ours if ours is not None else theirs
        return kept, (ADDED_TWICE if ours is not None and theirs is not None and ours != theirs else None)
    survivor = ours if ours is not None else theirs
    return None, (EDITED_DELETED if survivor is not None and survivor != base else None)


def merge_fields(base: Mapping[str, Any] | None, ours: Mapping[str, Any], theirs: Mapping[str, Any],
                 skip: Collection[str] = ()) -> tuple[dict[str, Any], list[str]]:
    """The merged fields of an entry (all but `skip`) and the names of the fields both sides changed
    differently. A field is absent from the result when the merge removes it."""
    base = base or {}
    merged: dict[str, Any] = {}
    conflicts: list[str] = []
    names = list(dict.fromkeys([*ours, *theirs, *base]))
    for name in names:
        if name in skip:
            continue
        b, o, t = (entry.get(name, MISSING) for entry in (base, ours, theirs))
        value, conflict = merge_value(b, o, t)
        if conflict and name in RESOLVED:
            value, conflict = RESOLVED[name](o, t), False
        if conflict:
            conflicts.append(name)
        if value is not MISSING:
            merged[name] = value
    return merged, conflicts
