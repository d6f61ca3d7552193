"""The role ladder of API.md: admin > create > review > edit > comment > read > guest (null).

A neutral module: the domain decides with it, and wire computes `permissions` flags with it.
"""

from __future__ import annotations

from typing import Literal

Role = Literal["admin", "create", "review", "edit", "comment", "read"]
ROLES: tuple[Role, ...] = ("admin", "create", "review", "edit", "comment", "read")
# read=1 … admin=6; guest (None) ranks 0
_RANK: dict[str, int] = {role: len(ROLES) - index for index, role in enumerate(ROLES)}


def rank(role: str | None) -> int:
    return _RANK.get(role, 0) if role else 0


def at_least(role: str | None, required: Role) -> bool:
    return rank(role) >= _RANK[required]


def strongest(*roles: str | None) -> str | None:
    best: str | None = None
    for role in roles:
        if rank(role) > rank(best):
            best = role
    return best
