"""The users a response names (authors, reviewers, reactors…), read in bulk for bindery.api.wire to shape:
wire is pure, so the reads happen here, on the caller's side.

Guests (no organization role) see users without their email, everywhere (docs/decisions.md, Members):
every answer that names users reads them here, for a viewer, so no answer can forget the rule."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from bindery.store.members import Member
from bindery.store.users import User, get_users


def shows_emails(viewer: Member) -> bool:
    """Whether `viewer` sees other users' emails: members with a role do (a member listing is a
    directory), guests do not."""
    return viewer.role is not None


def load_users(user_ids: Iterable[str | None], *, viewer: Member) -> dict[str, User]:
    """One BatchGetItem per 100 distinct users; a user who no longer exists is simply absent. Shown to a
    guest, the users come without their email."""
    users = get_users(sorted({uid for uid in user_ids if uid}))
    if shows_emails(viewer):
        return users
    return {uid: replace(user, email=None) for uid, user in users.items()}
