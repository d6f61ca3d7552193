"""The users a response names (authors, reviewers, reactors…), read in bulk for bindery.api.wire to shape:
wire is pure, so the reads happen here, on the caller's side."""

from __future__ import annotations

from collections.abc import Iterable

from bindery.store.users import User, get_users


def load_users(user_ids: Iterable[str | None]) -> dict[str, User]:
    """One BatchGetItem per 100 distinct users; a user who no longer exists is simply absent."""
    return get_users(sorted({uid for uid in user_ids if uid}))
