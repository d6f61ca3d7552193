"""User reads."""

from __future__ import annotations

from bindery.domain.access.auth import Caller
from bindery.platform.errors import NotFound
from bindery.store import users as user_store
from bindery.store.users import User


def get_user(caller: Caller, user_id: str) -> User:
    """Any authenticated user may read a profile (as on GitBook); the email only goes to its owner."""
    user = user_store.get_user(user_id)
    if user is None:
        raise NotFound("No matching user")
    if user.id != caller.user_id:
        user.email = None
    return user
