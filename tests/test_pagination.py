"""Page cursors: opaque, bound to one listing and one secret, refused (400 naming `page`) when forged.

These build well-formed cursors an attacker could make: of another listing, sealed with another secret,
with a tag cut short or a bit flipped. Each must be refused, so a cursor check that covers nothing fails
here rather than passing tests that only send garbage.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal

import boto3
import pytest

from bindery.platform.config import settings
from bindery.platform.errors import BadRequest
from bindery.platform.pagination import (
    Listing,
    carried_count,
    decode_cursor,
    encode_cursor,
    next_page,
    open_page,
)
from tests.settings_environment import changed_environment

SCOPE = "spaces:org-1"
KEY = {"PK": "ORG#org-1", "SK": "SPACE#private-space-id", "GSI1SK": "2026-11-23T10:00:00Z"}


def _raw(cursor: str) -> bytes:
    return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _refused(scope: str, cursor: str) -> str:
    with pytest.raises(BadRequest) as raised:
        decode_cursor(scope, cursor)
    assert str(raised.value).startswith("page: ")
    return str(raised.value)


@contextmanager
def cursor_secret(secret: str) -> Iterator[None]:
    """The settings of a deployment with another cursor secret, for the duration of a block."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BINDERY_CURSOR_SECRET", secret)
        settings.cache_clear()
        try:
            yield
        finally:
            patch.undo()
            settings.cache_clear()


def test_a_cursor_round_trips_its_start_key():
    cursor = encode_cursor(SCOPE, KEY)
    assert decode_cursor(SCOPE, cursor) == KEY
    # DynamoDB numbers come back as Decimal: whole ones as ints, others as their exact text.
    assert decode_cursor(SCOPE, encode_cursor(SCOPE, {"n": Decimal(3), "f": Decimal("1.5")})) == {"n": 3,
                                                                                                  "f": "1.5"}
    assert decode_cursor(SCOPE, None) is None
    assert decode_cursor(SCOPE, "") is None


def test_a_cursor_reveals_nothing_of_its_key():
    cursor = encode_cursor(SCOPE, KEY)
    raw = _raw(cursor)
    for secret in ("private-space-id", "ORG#", "2026-11-23", SCOPE):
        assert secret not in cursor
        assert secret.encode() not in raw
    # Random per cursor: two cursors of one key cannot be matched to each other.
    assert encode_cursor(SCOPE, KEY) != cursor


def test_a_cursor_of_another_listing_is_refused():
    cursor = encode_cursor("spaces:org-2", KEY)
    assert _refused(SCOPE, cursor) == "page: the page cursor belongs to another listing"
    # Another filter of the same listing is another scope too.
    unfiltered = encode_cursor("members:o1:role:asc::", KEY)
    assert "another listing" in _refused("members:o1:role:asc:admin:", unfiltered)


def test_a_cursor_sealed_with_another_secret_is_refused():
    with cursor_secret("another-deployments-secret-0123456789"):
        foreign = encode_cursor(SCOPE, KEY)
        assert decode_cursor(SCOPE, foreign) == KEY  # valid where it was made
    assert _refused(SCOPE, foreign) == "page: invalid page cursor"


def test_a_truncated_tag_is_refused():
    raw = _raw(encode_cursor(SCOPE, KEY))
    for cut in (1, 4, 16):
        assert _refused(SCOPE, _text(raw[:-cut])) == "page: invalid page cursor"


@pytest.mark.parametrize("where", ["version", "nonce", "ciphertext", "tag"])
def test_a_flipped_bit_is_refused(where):
    raw = bytearray(_raw(encode_cursor(SCOPE, KEY)))
    index = {"version": 0, "nonce": 5, "ciphertext": 13 + 20, "tag": len(raw) - 1}[where]
    raw[index] ^= 0x01
    assert _refused(SCOPE, _text(bytes(raw))) == "page: invalid page cursor"


def test_a_cursor_of_the_old_signed_format_or_garbage_is_refused():
    old = "eyJzIjoic3BhY2VzOm9yZy0xIiwiayI6e319.q83vEjRWeJCrze8SNFZ4kA"
    for cursor in (old, "garbage", "x", "====", "AQ", "é", "\ud800"):
        _refused(SCOPE, cursor)


NO_SECRET = r"^BINDERY_CURSOR_SECRET_ARN \(or BINDERY_CURSOR_SECRET\) is not set$"


def test_a_cursor_without_a_secret_is_never_made_nor_read():
    cursor = encode_cursor(SCOPE, KEY)
    # The error names the setting to fix: this is a deployment's mistake, not a client's.
    with cursor_secret(""), pytest.raises(RuntimeError, match=NO_SECRET):
        encode_cursor(SCOPE, KEY)
    with cursor_secret(""), pytest.raises(RuntimeError, match=NO_SECRET):
        decode_cursor(SCOPE, cursor)


def test_a_deployed_stack_reads_the_secret_from_secrets_manager():
    """template.yaml generates the secret in Secrets Manager and names it; no environment variable holds
    the value. Cursors made with it are the cursors the same value would make."""
    made = boto3.client("secretsmanager").create_secret(Name="bindery-cursor-test",
                                                        SecretString="s" * 64)
    with changed_environment({"BINDERY_CURSOR_SECRET": None, "BINDERY_CURSOR_SECRET_ARN": made["ARN"]}):
        cursor = encode_cursor(SCOPE, KEY)
        assert decode_cursor(SCOPE, cursor) == KEY
    with cursor_secret("s" * 64):
        assert decode_cursor(SCOPE, cursor) == KEY
    with cursor_secret("t" * 64), pytest.raises(BadRequest):
        decode_cursor(SCOPE, cursor)


# --- counts carried by cursors ------------------------------------------------------------------
def _pages_of(sizes: list[int]):
    """A listing of pages shown to a caller: how many items each page shows, read by start key."""
    reads: list[int | None] = []

    def count_page(start: dict | None) -> tuple[int, dict | None]:
        index = 0 if start is None else start["i"]
        reads.append(index)
        # A count that reads a page twice never ends on a real listing: fail here, not by a hang.
        assert reads.count(index) == 1, f"page {index} read again: {reads}"
        return sizes[index], ({"i": index + 1} if index + 1 < len(sizes) else None)

    return count_page, reads


def test_the_first_page_counts_the_rest_and_its_cursor_carries_the_total():
    count_page, reads = _pages_of([1, 0, 3, 2])
    first = open_page(SCOPE, None)
    total = carried_count(first, (1, {"i": 1}), count_page)
    assert (total, reads) == (6, [1, 2, 3])  # the page already read is not read again
    cursor = next_page(SCOPE, {"i": 1}, total)
    later = open_page(SCOPE, cursor)
    assert (later.start, later.count) == ({"i": 1}, 6)
    reads.clear()
    assert carried_count(later, (0, {"i": 2}), count_page) == 6
    assert reads == []  # later pages read nothing to count


def test_a_cursor_that_carries_no_count_counts_from_the_beginning():
    count_page, reads = _pages_of([2, 2, 1])
    # Issued where no pass was needed (an organization admin's), then used by someone who needs one.
    later = open_page(SCOPE, next_page(SCOPE, {"i": 1}))
    assert (later.start, later.count) == ({"i": 1}, None)
    assert carried_count(later, (2, {"i": 2}), count_page) == 5
    assert reads == [0, 1, 2]


def test_the_last_page_has_no_cursor_and_a_carried_count_is_refused_in_another_listing():
    assert next_page(SCOPE, None, 3) is None
    cursor = next_page(SCOPE, KEY, 3)
    assert decode_cursor(SCOPE, cursor) == KEY
    with pytest.raises(BadRequest, match="another listing"):
        open_page("spaces:org-2", cursor)


# --- the format, as docs and clients rely on it ----------------------------------------------------------
def _sealed(scope: str, body: bytes) -> str:
    """A cursor made the documented way, independently of bindery.platform.pagination: AES-256-GCM under a key
    HKDF-SHA256 derives from the secret, version byte as associated data, SHA-256(scope)[:16] first."""
    import hashlib
    import os

    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    secret = settings().cursor_secret  # the test deployment's (tests/conftest.py)
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"bindery page cursor v1").derive(
        secret.encode())
    nonce = os.urandom(12)
    sealed = AESGCM(key).encrypt(nonce, hashlib.sha256(scope.encode()).digest()[:16] + body, b"\x01")
    return _text(b"\x01" + nonce + sealed)


def test_a_cursor_sealed_as_documented_is_read_so_cursors_survive_a_deploy():
    # A cursor a client holds across a deploy (or a cold start) must still open: the key derivation and
    # the layout are the format, not an implementation detail.
    assert decode_cursor(SCOPE, _sealed(SCOPE, b'{"PK":"ORG#org-1"}')) == {"PK": "ORG#org-1"}
    # And what encode_cursor makes has exactly that layout: version, nonce, digest + compact JSON, tag.
    body = b'{"PK":"ORG#org-1","SK":"SPACE#private-space-id","GSI1SK":"2026-11-23T10:00:00Z"}'
    assert len(_raw(encode_cursor(SCOPE, KEY))) == 1 + 12 + 16 + len(body) + 16


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"text"', b'{"#key": 1, "#count": 2}',
                                  b'{"#key": {"PK": "x"}, "#count": "3"}', b'{"#key": {"PK": "x"}}'])
def test_a_sealed_cursor_that_does_not_hold_a_start_key_is_refused(body):
    # Only a holder of the secret could make one; should it leak, the contents are still checked.
    assert _refused(SCOPE, _sealed(SCOPE, body)) == "page: invalid page cursor"


def test_cursors_of_every_length_are_url_safe_and_round_trip():
    # Every length of key, so every base64 remainder occurs: no "=" padding (a cursor travels in a
    # query string) and nothing stripped that decoding needs.
    for size in range(300):
        key = {"PK": "x" * size}
        cursor = encode_cursor(SCOPE, key)
        assert "=" not in cursor
        assert set(cursor) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        assert decode_cursor(SCOPE, cursor) == key


def test_a_cursor_ends_in_any_character_and_still_opens():
    # A key whose sealed cursor needs no padding: its last character is random (nonce and tag), so
    # every one of the 64 comes up; stripping more than the padding would break those that end in it.
    alphabet = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    key, last = {"PK": "xyz"}, set()
    for _ in range(20_000):  # about 300 are needed; 20,000 leave no real chance of missing one
        cursor = encode_cursor(SCOPE, key)
        assert len(cursor) % 4 == 0
        assert decode_cursor(SCOPE, cursor) == key
        last.add(cursor[-1])
        if last == alphabet:
            break
    assert last == alphabet


def test_a_scope_holding_a_lone_surrogate_binds_its_cursor():
    # A search listing's scope holds the query, and a query may hold a lone surrogate.
    scope = "search:org-1:a\ud800b"
    assert decode_cursor(scope, encode_cursor(scope, KEY)) == KEY
    assert "another listing" in _refused("search:org-1:a\udc00b", encode_cursor(scope, KEY))


def test_a_key_that_json_cannot_hold_is_a_type_error_naming_the_type():
    with pytest.raises(TypeError, match="set"):
        encode_cursor(SCOPE, {"PK": {1, 2}})


# --- the list response ----------------------------------------------------------------------------------
def test_a_listing_maps_its_items_and_keeps_its_cursor_and_count():
    page = Listing([1, 2], "cursor-text", 7).map(lambda n: {"n": n * 10})
    assert page.to_wire() == {"items": [{"n": 10}, {"n": 20}], "next": {"page": "cursor-text"}, "count": 7}
    last = Listing(["a"], None, 1)
    assert last.to_wire() == {"items": ["a"], "count": 1}
    assert Listing([], "", 0).to_wire() == {"items": [], "count": 0}
