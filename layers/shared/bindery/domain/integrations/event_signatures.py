"""How an integration event delivery is signed, and how a receiver verifies it (docs/integrations.md).

    X-Bindery-Timestamp: <seconds since the epoch when the attempt was sent>
    X-Bindery-Signature: v1=<hex HMAC-SHA256(signing secret, "<timestamp>.<body bytes>")>

The timestamp is inside the signed bytes, so a captured delivery cannot be re-sent later with a fresh
one: a receiver refuses a timestamp further than `tolerance` seconds from its own clock (a replay), and
a signature that does not match (compared in constant time).
"""

from __future__ import annotations

import hashlib
import hmac

TIMESTAMP = "X-Bindery-Timestamp"
SIGNATURE = "X-Bindery-Signature"
TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def headers(secret: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {TIMESTAMP: str(timestamp), SIGNATURE: signature(secret, timestamp, body)}


def verify(secret: str, received: dict[str, str], body: bytes, *, now: int,
           tolerance: int = TOLERANCE_SECONDS) -> bool:
    """What a receiver does: the signature matches and the timestamp is recent."""
    try:
        timestamp = int(received.get(TIMESTAMP, ""))
    except ValueError:
        return False
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, timestamp, body), received.get(SIGNATURE, ""))
