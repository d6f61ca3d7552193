"""Opaque, tamper-proof list cursors and the list response shape.

A cursor is `base64url(json) + "." + HMAC-SHA256` over it, bound to a *scope* string naming the listing
and its filters. A forged cursor, or one from another listing (another organization, another filter), is
a 400: it can never steer a Query into a partition the caller did not ask for.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from bindery.config import settings
from bindery.errors import BadRequest

MAX_LIMIT = 1000
DEFAULT_LIMIT = 100


def _secret() -> bytes:
    secret = settings().cursor_secret
    if not secret:
        # Without a configured secret a cursor could be forged; refuse to run rather than sign with nothing.
        raise RuntimeError("BINDERY_CURSOR_SECRET is not set")
    return secret.encode()


def _sign(payload: bytes) -> str:
    digest = hmac.new(_secret(), payload, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    raise TypeError(type(value).__name__)


def encode_cursor(scope: str, last_key: dict[str, Any]) -> str:
    body = json.dumps({"s": scope, "k": last_key}, separators=(",", ":"), default=_default).encode()
    payload = base64.urlsafe_b64encode(body).decode().rstrip("=")
    return f"{payload}.{_sign(payload.encode())}"


def decode_cursor(scope: str, cursor: str | None) -> dict[str, Any] | None:
    """The DynamoDB start key a cursor carries, after checking its signature and its scope."""
    if not cursor:
        return None
    payload, _, signature = cursor.partition(".")
    if not cursor.isascii() or not signature or not hmac.compare_digest(signature, _sign(payload.encode())):
        # A cursor we issued is base64url and hex: anything else (bytes that are not UTF-8 arrive as
        # lone surrogates) is not ours, and must not reach an encoder that would raise.
        raise BadRequest("page: invalid page cursor")
    try:
        data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except ValueError as error:
        raise BadRequest("page: invalid page cursor") from error
    if data.get("s") != scope:
        raise BadRequest("page: the page cursor belongs to another listing")
    key = data.get("k")
    if not isinstance(key, dict):
        raise BadRequest("page: invalid page cursor")
    return key


@dataclass
class Listing:
    """One page of a listing, ready for the wire."""

    items: list[Any]
    next_cursor: str | None = None
    count: int | None = None

    def to_wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"items": self.items}
        if self.next_cursor:
            body["next"] = {"page": self.next_cursor}
        if self.count is not None:
            body["count"] = self.count
        return body
