"""Value types several response shapes share (enums as the reference spec states them)."""

from __future__ import annotations

from typing import Any, Literal

from bindery.wire.models.base import WireModel

MemberRole = Literal["admin", "create", "edit", "review", "comment", "read"]
# The spec's MemberRoleOrGuest: a role, or `null` for a guest (always sent).
MemberRoleOrGuest = MemberRole | None
Timestamp = str
# Rich-text documents, merge rules and other nested stored structures pass through as stored: their
# blocks are the content engine's (bindery.content), validated when written.
JSONObject = dict[str, Any]


class Location(WireModel):
    location: str


class Empty(WireModel):
    """An answer with nothing to say (`{}`)."""
