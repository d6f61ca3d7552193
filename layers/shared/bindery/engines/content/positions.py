"""Sibling order as sortable strings (fractional indexing), so that a move rewrites one item only.

A position is a non-empty string over the base-62 digits in ASCII order that never ends in the lowest
digit `0`. That rule is what keeps room everywhere: nothing sorts strictly between `a` and `a + "0"`,
but between any two positions that obey it there is always another one (which obeys it too), so
`between(a, b)` never needs to renumber the siblings.
"""

from __future__ import annotations

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BASE = len(DIGITS)
_MID = DIGITS[_BASE // 2]
_VALUES = {digit: value for value, digit in enumerate(DIGITS)}


def _checked(position: str | None) -> str | None:
    if position is not None and (not position or position[-1] == DIGITS[0]
                                 or any(c not in _VALUES for c in position)):
        raise ValueError(f"not a position: {position!r}")
    return position


def _digit(position: str, index: int, default: int) -> int:
    return _VALUES[position[index]] if index < len(position) else default


def between(before: str | None, after: str | None) -> str:
    """A position strictly after `before` and strictly before `after` (None = open end).

    ValueError when a bound is not a position or the bounds are equal or inverted."""
    _checked(before)
    _checked(after)
    if before is not None and after is not None and not before < after:
        raise ValueError(f"positions out of order: {before!r} !< {after!r}")
    low = before or ""
    prefix = ""  # the digits of `low` (padded with 0) so far, equal to those of `after` while it binds
    # Each round either answers or moves one digit on; with valid bounds the answer comes by the end of
    # the longer bound (+1), so the loop is bounded rather than trusting that argument with a hang.
    for index in range(max(len(low), len(after or "")) + 2):
        lo = _digit(low, index, 0)
        hi = _digit(after, index, _BASE) if after is not None else _BASE
        if hi - lo > 1:
            # > lo keeps it above `low`; < hi keeps it below `after`; never 0, so it stays a position.
            return prefix + DIGITS[(lo + hi) // 2]
        prefix += DIGITS[lo]
        # Once the prefix is strictly below `after`, the upper bound no longer constrains later digits.
        if after is not None and prefix < after[: index + 1]:
            after = None
    raise AssertionError(f"no position found between {before!r} and {after!r}")  # unreachable


def first() -> str:
    return _MID
