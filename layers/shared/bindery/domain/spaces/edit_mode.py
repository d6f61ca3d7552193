"""A space's `editMode`: a locked space refuses every change of its content. A module of its own so that
what checks it (change requests, merges, Git Sync, templates) imports it without the spaces' domain
(bench/README.md, "Cold start")."""

from __future__ import annotations

from bindery.platform.errors import Forbidden
from bindery.store.spaces import Space


def require_editable(space: Space) -> None:
    """Every content change and merge in a space calls this first: a locked space refuses them all.
    403, like any action the caller's `permissions` (edit/merge are false when locked) do not allow."""
    if space.edit_mode == "locked":
        raise Forbidden("This space is locked (editMode: locked): its content cannot be changed or merged "
                        "until an admin sets editMode back to live")
