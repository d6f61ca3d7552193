"""The files of a repository at one commit, by path, read only when asked for.

A real documentation repository can hold hundreds of megabytes of images and videos, most of them outside
the part a space syncs with. So an import never holds a repository's files in memory: it gets a
`RepositoryFiles` mapping (path -> bytes) whose paths come from the commit's tree and whose bytes are
read from the object store on access, one file at a time. `describe` gives a file's SHA-256 and size
(computed once, from the file's chunks) and `open` a stream of its bytes for uploading; `oid` the git
blob id, which the tree already names. `within(prefix)` is the same files re-rooted at a directory.

`MemoryFiles` wraps plain bytes (the pure importer's callers and tests); `StoredFiles` reads a dulwich
object store (gitsync.transport fetches into one on disk) and enforces the import's limits: a file larger
than `MAX_FILE_BYTES`, a project directory of more than `MAX_PROJECT_FILES` files, or files read
totalling more than `MAX_PROJECT_BYTES` fail the import with a message naming the file or the limit.
"""

from __future__ import annotations

import hashlib
import io
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from dulwich.object_store import BaseObjectStore
from dulwich.objects import Blob, ObjectID

from bindery.engines.gitsync.layout import InvalidRepository

MB = 1024 * 1024
MAX_FILE_BYTES = 100 * MB
MAX_PROJECT_FILES = 20_000
MAX_PROJECT_BYTES = 2048 * MB  # of the files an import reads: what goes to S3, not what stays in Git


class TooLarge(InvalidRepository):
    """A file or the project directory is over a limit; the message names which."""


@dataclass(frozen=True)
class FileFacts:
    sha256: str  # hex, as store.blobs names file bytes
    size: int


class ChunksReader(io.RawIOBase):
    """A read-only stream over a list of byte strings, without joining them (a join would double the
    memory a large file takes)."""

    def __init__(self, chunks: Sequence[bytes]) -> None:
        super().__init__()
        self._chunks = list(chunks)
        self._index = 0
        self._offset = 0

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._chunks = []  # a closed stream must not keep a large file alive
        super().close()

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        target = memoryview(buffer).cast("B")
        written = 0
        while written < len(target) and self._index < len(self._chunks):
            chunk = self._chunks[self._index]
            taken = chunk[self._offset : self._offset + len(target) - written]
            target[written : written + len(taken)] = taken
            written += len(taken)
            self._offset += len(taken)
            if self._offset >= len(chunk):
                self._index, self._offset = self._index + 1, 0
        return written


class RepositoryFiles(Mapping[str, bytes]):
    """Regular files by "/"-separated path; bytes read on access (see the module's docstring)."""

    def __init__(self) -> None:
        self._facts: dict[str, FileFacts] = {}

    @abstractmethod
    def paths(self) -> Sequence[str]: ...

    @abstractmethod
    def chunks(self, path: str) -> Sequence[bytes]:
        """The file's bytes, in pieces as the store holds them (KeyError: no such file)."""

    @abstractmethod
    def oid(self, path: str) -> str:
        """The git blob id of the file."""

    @abstractmethod
    def within(self, prefix: str) -> RepositoryFiles:
        """The files under `prefix` ("docs/", or "" for all), by path relative to it."""

    def __getitem__(self, path: str) -> bytes:
        return b"".join(self.chunks(path))

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths())

    def __len__(self) -> int:
        return len(self.paths())

    def describe(self, path: str) -> FileFacts:
        """The file's SHA-256 and size, read once."""
        facts = self._facts.get(path)
        if facts is None:
            digest, size = hashlib.sha256(), 0
            for chunk in self.chunks(path):
                digest.update(chunk)
                size += len(chunk)
            facts = self._facts[path] = FileFacts(digest.hexdigest(), size)
        return facts

    def open(self, path: str) -> BinaryIO:
        """A stream of the file's bytes (for uploading without one more copy of them)."""
        return io.BufferedReader(ChunksReader(self.chunks(path)))


class MemoryFiles(RepositoryFiles):
    def __init__(self, files: Mapping[str, bytes]) -> None:
        super().__init__()
        self._files = {path.lstrip("/"): data for path, data in files.items()}

    def paths(self) -> Sequence[str]:
        return list(self._files)

    def chunks(self, path: str) -> Sequence[bytes]:
        return [self._files[path]]

    def __contains__(self, path: object) -> bool:
        return path in self._files

    def oid(self, path: str) -> str:
        return Blob.from_string(self._files[path]).id.decode()

    def within(self, prefix: str) -> RepositoryFiles:
        return MemoryFiles({path[len(prefix) :]: data for path, data in self._files.items()
                            if path.startswith(prefix)})


@dataclass
class _Reads:
    """What a stored import has read so far (shared by the views of one fetch)."""

    paths: set[str] = field(default_factory=set)
    total: int = 0


class StoredFiles(RepositoryFiles):
    """Files of a dulwich object store: `blobs` maps each path to its blob id."""

    def __init__(self, store: BaseObjectStore, blobs: Mapping[str, ObjectID], *, prefix: str = "",
                 reads: _Reads | None = None) -> None:
        super().__init__()
        self._store, self._blobs, self._prefix = store, dict(blobs), prefix
        self._reads = reads or _Reads()

    def paths(self) -> Sequence[str]:
        return list(self._blobs)

    def __contains__(self, path: object) -> bool:
        return path in self._blobs

    def oid(self, path: str) -> str:
        return self._blobs[path].decode()

    def chunks(self, path: str) -> Sequence[bytes]:
        blob = self._store[self._blobs[path]]
        assert isinstance(blob, Blob)
        chunks = blob.as_raw_chunks()
        size = sum(len(chunk) for chunk in chunks)
        shown = f"{self._prefix}{path}"
        if size > MAX_FILE_BYTES:
            raise TooLarge(f"{shown} is too large to import ({size // MB} MB; the limit is "
                           f"{MAX_FILE_BYTES // MB} MB a file)")
        if shown not in self._reads.paths:
            self._reads.paths.add(shown)
            self._reads.total += size
            if self._reads.total > MAX_PROJECT_BYTES:
                raise TooLarge(f"the project directory's files are too large to import (more than "
                               f"{MAX_PROJECT_BYTES // MB} MB read, at {shown})")
        return chunks

    def within(self, prefix: str) -> RepositoryFiles:
        inside = {path[len(prefix) :]: sha for path, sha in self._blobs.items() if path.startswith(prefix)}
        if len(inside) > MAX_PROJECT_FILES:
            where = f"the project directory {prefix.rstrip('/')}" if prefix else "the repository"
            raise TooLarge(f"{where} has too many files to import ({len(inside)}; the limit is "
                           f"{MAX_PROJECT_FILES})")
        return StoredFiles(self._store, inside, prefix=self._prefix + prefix, reads=self._reads)


class FilesById(Mapping[str, bytes]):
    """An import's files: file id -> bytes, read from the repository's file on access."""

    def __init__(self, source: RepositoryFiles, paths: Mapping[str, str]) -> None:
        self.source, self.paths = source, dict(paths)

    def __getitem__(self, file_id: str) -> bytes:
        return self.source[self.paths[file_id]]

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)

    def __contains__(self, file_id: object) -> bool:
        return file_id in self.paths

    def describe(self, file_id: str) -> FileFacts:
        return self.source.describe(self.paths[file_id])

    def open(self, file_id: str) -> BinaryIO:
        return self.source.open(self.paths[file_id])

    def only(self, file_ids: Iterable[str]) -> FilesById:
        return FilesById(self.source, {file_id: self.paths[file_id] for file_id in file_ids})
