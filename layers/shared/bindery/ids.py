"""Identifiers: 20 characters, sortable by creation time, unguessable in their random part."""

from __future__ import annotations

import secrets
import string
import time

_ALPHABET = string.digits + string.ascii_uppercase + string.ascii_lowercase  # ASCII order keeps sort order


def _base62(number: int, width: int) -> str:
    chars = []
    for _ in range(width):
        number, rest = divmod(number, 62)
        chars.append(_ALPHABET[rest])
    return "".join(reversed(chars))


def new_id() -> str:
    """Time-ordered id: 8 chars of milliseconds, then 12 random chars (~71 bits)."""
    return _base62(time.time_ns() // 1_000_000, 8) + "".join(secrets.choice(_ALPHABET) for _ in range(12))


def new_token() -> str:
    """An API token as handed to a user once; only its hash is stored."""
    return "gb_api_" + secrets.token_urlsafe(32)
