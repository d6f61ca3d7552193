"""Where a moved site space or section goes among its siblings (`position` {before | after} of the API;
no position: the end)."""

from __future__ import annotations

from bindery.engines.content.positions import between
from bindery.platform.errors import BadRequest


def position_among(siblings: list[tuple[str, str]], moving: str, *, before: str | None, after: str | None,
                   what: str) -> str:
    """A position for `moving` right before `before` or right after `after` (ids among `siblings`, given as
    (position, id)); at the end when neither. A target that is not a sibling, or is the moved item itself,
    is a 400 naming `position`."""
    rest = sorted(entry for entry in siblings if entry[1] != moving)
    target = before or after
    if target is None:
        return between(rest[-1][0] if rest else None, None)
    index = next((i for i, (_, sibling) in enumerate(rest) if sibling == target), None)
    if index is None:
        raise BadRequest(f"position: invalid position, no {what} {target!r} beside this one")
    if before is not None:
        low = rest[index - 1][0] if index > 0 else None
        return between(low, rest[index][0])
    high = rest[index + 1][0] if index + 1 < len(rest) else None
    return between(rest[index][0], high)
