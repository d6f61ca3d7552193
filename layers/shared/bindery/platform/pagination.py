"""Opaque, tamper-proof list cursors and the list response shape.

A cursor is `base64url(version ‖ nonce ‖ AES-256-GCM(scope digest ‖ JSON start key))`, with the key
derived (HKDF-SHA256) from the configured cursor secret. Encryption keeps what a page ends on private:
a start key names items (a private space, a change request) the caller may not be allowed to see. The
GCM tag makes it tamper-proof, and the authenticated digest of the *scope* string (the listing and its
filters, and the caller where the listing is the caller's) binds it to one listing: a forged cursor, or
one from another listing (another organization, another filter), is a 400 and can never steer a Query
into a partition the caller did not ask for.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, TypeVar

from bindery.platform.cursor_secret import cursor_secret
from bindery.platform.errors import BadRequest

MAX_LIMIT = 1000
DEFAULT_LIMIT = 100

# The first byte of every cursor: a new format (or key derivation) takes a new version, so an old cursor
# is refused as invalid instead of being misread.
_VERSION = b"\x01"
_NONCE = 12  # bytes: GCM's standard nonce, random per cursor
_TAG = 16  # bytes: GCM's full-length tag
_SCOPE_DIGEST = 16  # bytes of SHA-256(scope) inside the ciphertext
_INFO = b"bindery page cursor v1"
INVALID = "page: invalid page cursor"
# A carried count wraps the start key; no DynamoDB attribute name of ours starts with "#".
_CARRIED_KEY = "#key"
_CARRIED_COUNT = "#count"


def _key() -> bytes:
    """The AES-256 key, derived from the cursor secret so that key never serves two purposes."""
    secret = cursor_secret()
    # cryptography costs ~70 ms to import: only requests that page pay it, not every cold start.
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(secret.encode())


def _scope_digest(scope: str) -> bytes:
    # surrogatepass: a scope can hold a search query, and a query may hold a lone surrogate.
    return hashlib.sha256(scope.encode("utf-8", "surrogatepass")).digest()[:_SCOPE_DIGEST]


def _default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    raise TypeError(type(value).__name__)


def encode_cursor(scope: str, last_key: dict[str, Any]) -> str:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    body = json.dumps(last_key, separators=(",", ":"), default=_default).encode()
    nonce = os.urandom(_NONCE)
    sealed = AESGCM(_key()).encrypt(nonce, _scope_digest(scope) + body, _VERSION)
    return base64.urlsafe_b64encode(_VERSION + nonce + sealed).decode().rstrip("=")


def decode_cursor(scope: str, cursor: str | None) -> dict[str, Any] | None:
    """The DynamoDB start key a cursor carries, after checking its tag and its scope."""
    return open_page(scope, cursor).start


@dataclass(frozen=True)
class PageStart:
    """Where a page starts, and the listing's `count` when the first page counted it (see `next_page`)."""

    start: dict[str, Any] | None
    count: int | None = None


def next_page(scope: str, last_key: dict[str, Any] | None, count: int | None = None) -> str | None:
    """The cursor of the page after one that ended on `last_key` (None: that was the last page).

    `count` rides along for listings whose total only a pass over the whole listing can tell (what the
    caller's permissions let them see): the first page pays for that pass once, and every later page
    reads the total from its cursor. The cursor is sealed, so a client cannot change the count."""
    if not last_key:
        return None
    carried = last_key if count is None else {_CARRIED_KEY: last_key, _CARRIED_COUNT: count}
    return encode_cursor(scope, carried)


CountPage = Callable[[dict[str, Any] | None], tuple[int, dict[str, Any] | None]]


def carried_count(start: PageStart, page: tuple[int, dict[str, Any] | None], count_page: CountPage) -> int:
    """The total of a listing that only a pass over all of it can count (what the caller's permissions
    let them see). `page` is what the page just read shows the caller and where the next one starts;
    `count_page` reads the page at a start key (as large as a Query returns) and answers the same. The
    first page pays for the pass; its cursor carries the total to every later page (`next_page`). A
    cursor that carries none (issued when the caller needed no pass, e.g. as an admin) counts from the
    beginning."""
    if start.count is not None:
        return start.count
    counted, last_key = count_page(None) if start.start is not None else page
    while last_key:
        found, last_key = count_page(last_key)
        counted += found
    return counted


def open_page(scope: str, cursor: str | None) -> PageStart:
    """The start key a cursor carries (and the count it carries, if any), after checking its tag and scope."""
    if not cursor:
        return PageStart(None)
    # A cursor we issued is base64url: anything else (bytes that are not UTF-8 arrive as lone
    # surrogates) is not ours, and must not reach a decoder that would raise something else.
    if not cursor.isascii():
        raise BadRequest(INVALID)
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (ValueError, binascii.Error) as error:
        raise BadRequest(INVALID) from error
    if raw[:1] != _VERSION or len(raw) < 1 + _NONCE + _SCOPE_DIGEST + _TAG:
        raise BadRequest(INVALID)
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    try:
        plain = AESGCM(_key()).decrypt(raw[1:1 + _NONCE], raw[1 + _NONCE:], _VERSION)
    except InvalidTag as error:
        raise BadRequest(INVALID) from error
    if plain[:_SCOPE_DIGEST] != _scope_digest(scope):
        raise BadRequest("page: the page cursor belongs to another listing")
    try:
        key = json.loads(plain[_SCOPE_DIGEST:])
    except ValueError as error:
        raise BadRequest(INVALID) from error
    if not isinstance(key, dict):
        raise BadRequest(INVALID)
    if _CARRIED_KEY in key:
        start, count = key[_CARRIED_KEY], key.get(_CARRIED_COUNT)
        if not isinstance(start, dict) or not isinstance(count, int):
            raise BadRequest(INVALID)
        return PageStart(start, count)
    return PageStart(key)


ItemT = TypeVar("ItemT")
WireT = TypeVar("WireT")


@dataclass
class Listing(Generic[ItemT]):
    """One page of a listing: the domain fills it with typed results, and the route maps them to their
    wire models (`map`) before `to_wire` gives the list response's body."""

    items: list[ItemT]
    next_cursor: str | None
    # Every listing says how many items it holds over all its pages (API.md, lists): no default, so a
    # listing cannot forget it.
    count: int

    def map(self, shape: Callable[[ItemT], WireT]) -> Listing[WireT]:
        """The same page with each item shaped by `shape` (cursor and count unchanged)."""
        return Listing([shape(item) for item in self.items], self.next_cursor, self.count)

    def to_wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"items": self.items}
        if self.next_cursor:
            body["next"] = {"page": self.next_cursor}
        body["count"] = self.count
        return body
