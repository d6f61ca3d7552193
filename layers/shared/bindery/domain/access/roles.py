"""The role ladder now lives in bindery.domain.access.role_order (wire needs it too, and wire must not depend
on the domain). Re-exported here because the domain modules import it from this name; new code imports
bindery.domain.access.role_order."""

from __future__ import annotations

from bindery.domain.access.role_order import ROLES, Role, at_least, rank, strongest

__all__ = ["ROLES", "Role", "at_least", "rank", "strongest"]
