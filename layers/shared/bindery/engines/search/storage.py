"""Where index files live: content-addressed objects `spaces/{spaceId}/search/{digest}.sqlite` (S3, or
the `BINDERY_BLOB_DIR` directory locally), copied on first use into a bounded cache directory under the
function's `/tmp` and opened read-only there.

An index file never changes (its name is its SHA-256), so a cached copy or open connection never goes
stale: the cache only has to stay within `CACHE_BYTES` of disk (Lambda gives 512 MB of `/tmp` by
default) and `CONNECTIONS` open databases, least recently used first out. Which file a revision's search
reads never changes either (its pointer item is written once): the last `REVISIONS` revisions searched
are remembered, so that a warm search reads no pointer (a GetItem saved on every query).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from bindery.engines.search.query import IndexConnection
from bindery.store import blobs
from bindery.store.objects import object_store

CACHE_BYTES = 256 * 1024 * 1024
CONNECTIONS = 8
REVISIONS = 1024
CACHE_DIR_ENV = "BINDERY_SEARCH_CACHE_DIR"


def object_key(space_id: str, digest: str) -> str:
    return f"spaces/{space_id}/search/{digest}.sqlite"


def put(space_id: str, data: bytes) -> str:
    """Store an index file (one PUT); its digest."""
    digest = hashlib.sha256(data).hexdigest()
    object_store().put(object_key(space_id, digest), data)
    return digest


def open_index(path: Path) -> IndexConnection:
    """A read-only connection to an index file on local disk (which never changes: `immutable=1`)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                           check_same_thread=False, factory=IndexConnection)


class LocalIndexes:
    """Index files copied to local disk, and connections to them."""

    def __init__(self, directory: Path, budget: int, connections: int, revisions: int = REVISIONS) -> None:
        self.directory = directory
        self.budget = budget
        self.size = connections
        self.revisions = revisions
        self._open: OrderedDict[str, sqlite3.Connection] = OrderedDict()
        self._digests: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._lock = threading.Lock()

    def remembered(self, space_id: str, revision_id: str) -> str | None:
        with self._lock:
            return self._digests.get((space_id, revision_id))

    def revision_digest(self, space_id: str, revision_id: str, find: Callable[[], str]) -> str:
        """The digest of the revision's index: remembered, else `find()` (which reads or builds it)."""
        key = (space_id, revision_id)
        with self._lock:
            digest = self._digests.get(key)
            if digest is not None:
                self._digests.move_to_end(key)
                return digest
        digest = find()  # outside the lock: it may build the index
        with self._lock:
            self._digests[key] = digest
            while len(self._digests) > self.revisions:
                self._digests.popitem(last=False)
        return digest

    def _fetch(self, space_id: str, digest: str, path: Path) -> None:
        data = object_store().get(object_key(space_id, digest))
        if data is None or hashlib.sha256(data).hexdigest() != digest:
            raise blobs.MissingBlob(f"search index {digest} of space {space_id} is missing or damaged")
        self.directory.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.partial")
        partial.write_bytes(data)
        partial.replace(path)
        self._evict(keep=path)

    def _evict(self, keep: Path) -> None:
        files = sorted(self.directory.glob("*.sqlite"), key=lambda p: p.stat().st_atime)
        used = sum(p.stat().st_size for p in files)
        for path in files:
            if used <= self.budget:
                break
            if path != keep:
                used -= path.stat().st_size
                self._close(path.stem)
                path.unlink(missing_ok=True)

    def _close(self, digest: str) -> None:
        connection = self._open.pop(digest, None)
        if connection is not None:
            connection.close()

    def connect(self, space_id: str, digest: str) -> sqlite3.Connection:
        """A read-only connection to the index (fetched first if it is not on disk yet)."""
        with self._lock:
            connection = self._open.get(digest)
            if connection is not None:
                self._open.move_to_end(digest)
                return connection
            path = self.directory / f"{digest}.sqlite"
            if path.exists():
                os.utime(path)  # for the LRU
            else:
                self._fetch(space_id, digest, path)
            connection = open_index(path)
            self._open[digest] = connection
            while len(self._open) > self.size:
                self._close(next(iter(self._open)))
            return connection

    def clear(self) -> None:
        with self._lock:
            for digest in list(self._open):
                self._close(digest)
            self._digests.clear()


_local = LocalIndexes(Path(os.environ.get(CACHE_DIR_ENV) or Path(tempfile.gettempdir()) / "bindery-search"),
                      CACHE_BYTES, CONNECTIONS)


def connect(space_id: str, digest: str) -> sqlite3.Connection:
    return _local.connect(space_id, digest)


def connect_revision(space_id: str, revision_id: str, find: Callable[[], str]) -> sqlite3.Connection:
    """A connection to the revision's index, whose digest `find()` gives the first time (reading the
    revision's pointer, or building the index)."""
    return _local.connect(space_id, _local.revision_digest(space_id, revision_id, find))


def knows_revision(space_id: str, revision_id: str) -> bool:
    """Is the revision's index digest remembered (no pointer to read)?"""
    return _local.remembered(space_id, revision_id) is not None


def cached_path(digest: str) -> Path:
    """Where the index file's local copy is (or will be): bench.search_route_bench opens it bare."""
    return _local.directory / f"{digest}.sqlite"


def clear_connections() -> None:
    """Close every open index and forget which revision reads which (tests that measure a cold query)."""
    _local.clear()
