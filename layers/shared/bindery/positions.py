"""Sibling order as sortable strings (fractional indexing), so that a move rewrites one item only.

A position is a non-empty string over the base-62 digits in ASCII order; between any two positions
there is always another one, so `between(a, b)` never needs to renumber the siblings.
"""

from __future__ import annotations

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BASE = len(DIGITS)
_MID = DIGITS[_BASE // 2]


def _digit(position: str, index: int, default: int) -> int:
    return DIGITS.index(position[index]) if index < len(position) else default


def between(before: str | None, after: str | None) -> str:
    """A position strictly after `before` and strictly before `after` (None = open end)."""
    if before is not None and after is not None and not before < after:
        raise ValueError(f"positions out of order: {before!r} !< {after!r}")
    low = before or ""
    result = []
    index = 0
    while True:
        lo = _digit(low, index, 0)
        hi = _digit(after, index, _BASE) if after is not None else _BASE
        if hi - lo > 1:
            result.append(DIGITS[(lo + hi) // 2])
            candidate = "".join(result)
            if candidate > low and (after is None or candidate < after):
                return candidate
        result.append(DIGITS[lo])
        index += 1
        # Once the prefix is strictly below `after`, the upper bound no longer constrains later digits.
        if after is not None and "".join(result) < after[: index]:
            after = None


def first() -> str:
    return _MID
