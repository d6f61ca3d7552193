"""The status a change request may move to, and how.

    draft <-> open,  draft/open -> archived -> open,  open/draft -> merged (only by merging)

`merged` is final. Every move is one transaction that changes the item's status (and its status-keyed
index entries) on the condition that it still has the status read, and moves the space's counters
(`changeRequestsOpen`, `changeRequestsDraft`; `changeRequests` counts every change request ever made),
so the counters always agree with the items (store.change_requests.status_ops).
"""

from __future__ import annotations

from bindery.platform.errors import BadRequest, Conflict

ALLOWED: dict[str, frozenset[str]] = {
    "draft": frozenset({"open", "archived"}),
    "open": frozenset({"draft", "archived"}),
    "archived": frozenset({"open"}),
    "merged": frozenset(),
}
MERGEABLE = frozenset({"open", "draft"})
EDITABLE = frozenset({"open", "draft"})


def check_transition(current: str, wanted: str) -> None:
    """400 for a move the flow does not allow (naming the field), 409 once merged."""
    if current == "merged":
        raise Conflict("This change request is merged: its status can no longer change")
    if wanted not in ALLOWED.get(current, frozenset()):
        raise BadRequest(f"status: a change request cannot go from {current} to {wanted}"
                         + (" (reopen it first)" if current == "archived" else ""))


def require_editable(status: str) -> None:
    """Content edits, updates and merges need a draft or open change request."""
    if status not in EDITABLE:
        raise Conflict(f"This change request is {status}: its content can no longer change")
