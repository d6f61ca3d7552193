"""Value types several response shapes share (enums as the reference spec states them)."""

from __future__ import annotations

from typing import Any

from bindery.api.responses.base import WireModel
from bindery.requests.common import RoleOrGuest, RoleValue

# The request bodies' role types, reused: Python treats Literals with the same values in another order as
# equal and caches them, so a second spelling would make the generated document depend on import order.
MemberRole = RoleValue
# The spec's MemberRoleOrGuest: a role, or `null` for a guest (always sent).
MemberRoleOrGuest = RoleOrGuest
Timestamp = str
# Rich-text documents, merge rules and other nested stored structures pass through as stored: their
# blocks are the content engine's (bindery.engines.content), validated when written.
JSONObject = dict[str, Any]


class AppUrl(WireModel):  # `urls` of content shown in the app: a page, a search hit
    app: str


class Location(WireModel):
    location: str


class Empty(WireModel):
    """An answer with nothing to say (`{}`)."""
