"""Identifiers: 20 characters, sortable by creation time, unguessable in their random part."""

from __future__ import annotations

import hashlib
import re
import secrets
import string
import time

_ALPHABET = string.digits + string.ascii_uppercase + string.ascii_lowercase  # ASCII order keeps sort order
# What any id a request names may look like: Bindery's own are 20 base62 characters; ids of other origin
# (a change request's number, ids chosen by imports or tests) stay within this. Anything else names
# nothing, and must not reach DynamoDB (its key-size limits would make it a 500).
MAX_ID_LENGTH = 128
_PLAUSIBLE = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_ID_LENGTH}}}")


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


def plausible(value: str) -> bool:
    """Could `value` be an id? (One rule for every id a path names.)"""
    return _PLAUSIBLE.fullmatch(value) is not None


def derived_id(first: str, *names: str) -> str:
    """An id shaped as new_id's, ordered in time as `first` (an id of new_id's) and always the same for
    the same names: an item written under it twice (a retried write) is one item."""
    digest = int.from_bytes(hashlib.sha256("/".join((first, *names)).encode()).digest()[:12], "big")
    return first[:8] + _base62(digest, 12)
