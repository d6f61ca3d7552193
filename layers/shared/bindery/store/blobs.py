"""Content-addressed storage of a space's values (documents, page trees) and of its files' bytes.

A value is named by the SHA-256 of its canonical JSON (`digest_of`). It is stored zlib-compressed, once
per space, whatever the number of revisions that use it: as the item `BLOB#{digest}` of the space's
partition when the compressed form fits comfortably in an item (`ITEM_LIMIT`), else as the object
`spaces/{spaceId}/blobs/{digest}` with a pointer item. Writes are idempotent: rewriting a digest writes
the same bytes. Blobs are deleted only with their space (`delete_prefix`, by store.space_purge).

Values never change, so decoded ones are cached in the process for good, keyed by (space, digest): the
cache is an LRU bounded by the size of the JSON it holds (`CACHE_BYTES`). Callers must not mutate what
`get_value` returns.

File bytes are content-addressed too: `spaces/{spaceId}/files/{sha256 of the bytes}`.

Bytes go to an object store (store.objects: S3, or the local runner's directory).
"""

from __future__ import annotations

import hashlib
import json
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, BinaryIO

from bindery import keys
from bindery.platform.aws import dynamodb_table
from bindery.store import table
from bindery.store.objects import object_store

ITEM_LIMIT = 350_000  # compressed bytes; DynamoDB's item limit is 400 KB, keys and names included
CACHE_BYTES = 24 * 1024 * 1024  # of canonical JSON; decoded Python objects take about 3x that


class MissingBlob(LookupError):
    """A digest the space does not store: a revision naming it is damaged (an internal error)."""


def canonical_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def digest_of(value: Any) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


def blob_object_key(space_id: str, digest: str) -> str:
    return f"spaces/{space_id}/blobs/{digest}"


def file_object_key(space_id: str, digest: str) -> str:
    return f"spaces/{space_id}/files/{digest}"


# --- the cache ----------------------------------------------------------------------------------------
class _Cache:
    """Least recently used first out, bounded by the total weight (JSON bytes) of what it holds."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._entries: OrderedDict[tuple[str, str], tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> tuple[bool, Any]:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return False, None
            self._entries.move_to_end(key)
            return True, entry[0]

    def put(self, key: tuple[str, str], value: Any, weight: int) -> None:
        if weight > self.budget:
            return
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self.used -= previous[1]
            self._entries[key] = (value, weight)
            self.used += weight
            while self.used > self.budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.used -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.used = 0


_cache = _Cache(CACHE_BYTES)


def clear_cache() -> None:
    """Forget every decoded value (tests that measure cold reads; a table recreated under the same ids)."""
    _cache.clear()


# --- values -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Encoded:
    digest: str
    data: bytes  # canonical JSON


def encode(value: Any) -> Encoded:
    data = canonical_json(value)
    return Encoded(hashlib.sha256(data).hexdigest(), data)


def _item(space_id: str, encoded: Encoded) -> table.Item:
    packed = zlib.compress(encoded.data)
    base: table.Item = {**keys.blob(space_id, encoded.digest), "type": "blob"}
    if len(packed) <= ITEM_LIMIT:
        return {**base, "data": packed}
    object_store().put(blob_object_key(space_id, encoded.digest), packed)
    return {**base, "stored": "object", "size": len(packed)}


def put_encoded(space_id: str, values: Iterable[Encoded]) -> None:
    """Store values: large ones' bytes first, then the items, with BatchWriteItem (25 a request). A digest
    already stored is rewritten with the same bytes, which changes nothing."""
    unique = list({encoded.digest: encoded for encoded in values}.values())
    items = [_item(space_id, encoded) for encoded in unique]
    if not items:
        return
    with dynamodb_table().batch_writer() as batch:
        for item in items:
            batch.put_item(Item=item)


def put_values(space_id: str, values: Iterable[Any]) -> list[str]:
    """Store each value once; their digests, in the order given."""
    encoded = [encode(value) for value in values]
    put_encoded(space_id, encoded)
    return [entry.digest for entry in encoded]


def _packed(space_id: str, digest: str, item: table.Item) -> bytes:
    if "data" in item:
        data: Any = item["data"]  # boto3's Binary wraps the bytes in `value`
        return bytes(getattr(data, "value", data))
    stored = object_store().get(blob_object_key(space_id, digest))
    if stored is None:
        raise MissingBlob(f"blob {digest} of space {space_id}: its object is missing")
    return stored


def get_immutable_item(key: keys.Key) -> table.Item | None:
    """An immutable item: an eventually consistent read (half the cost) finds it unless it was written a
    moment ago; only a miss is confirmed by a strongly consistent read."""
    return table.get(key, consistent=False) or table.get(key)


def get_value(space_id: str, digest: str) -> Any:
    """The decoded value (from the cache, or one GetItem, plus one S3 GET for a large value)."""
    found, value = _cache.get((space_id, digest))
    if found:
        return value
    item = get_immutable_item(keys.blob(space_id, digest))
    if item is None:
        raise MissingBlob(f"blob {digest} of space {space_id} does not exist")
    data = zlib.decompress(_packed(space_id, digest, item))
    value = json.loads(data)
    _cache.put((space_id, digest), value, len(data))
    return value


def copy_values(source_space: str, target_space: str, digests: Iterable[str]) -> None:
    """Store the source space's values under the target space too (duplicating a space): one
    BatchGetItem per 100 digests, a server-side copy per large value, then the items (BatchWriteItem)."""
    wanted = list(dict.fromkeys(digests))
    items: list[table.Item] = []
    for start in range(0, len(wanted), 100):
        items += table.batch_get([keys.blob(source_space, digest) for digest in wanted[start:start + 100]])
    if len(items) != len(wanted):
        raise MissingBlob(f"space {source_space} lacks {len(wanted) - len(items)} of the blobs to copy")
    store = object_store()
    with dynamodb_table().batch_writer() as batch:
        for item in items:
            digest = item["SK"].removeprefix("BLOB#")
            if item.get("stored") == "object":
                store.copy(blob_object_key(source_space, digest), blob_object_key(target_space, digest))
            batch.put_item(Item={**item, **keys.blob(target_space, digest)})


def copy_files(source_space: str, target_space: str, digests: Iterable[str]) -> None:
    store = object_store()
    for digest in dict.fromkeys(digests):
        store.copy(file_object_key(source_space, digest), file_object_key(target_space, digest))


# --- file bytes ---------------------------------------------------------------------------------------
def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def put_file(space_id: str, data: bytes) -> str:
    """Store a file's bytes (one PUT); their digest."""
    digest = file_digest(data)
    object_store().put(file_object_key(space_id, digest), data)
    return digest


def read_file(space_id: str, digest: str) -> bytes | None:
    return object_store().get(file_object_key(space_id, digest))


def file_url(space_id: str, digest: str, *, name: str, content_type: str) -> str:
    return object_store().url(file_object_key(space_id, digest), name=name, content_type=content_type)


def put_file_stream(space_id: str, digest: str, stream: BinaryIO) -> None:
    """Store a file's bytes read from `stream`, whose SHA-256 (`digest`) the caller computed, never
    holding the whole file in memory (store.objects)."""
    object_store().put_stream(file_object_key(space_id, digest), stream)
