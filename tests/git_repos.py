"""Git repositories for the Git Sync tests: bare repositories on disk (in tmp_path), built and read
with dulwich, reached through `file://` URLs."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

from dulwich.index import commit_tree
from dulwich.objects import Blob, Commit, ObjectID
from dulwich.pack import UnpackedObject, full_unpacked_object
from dulwich.refs import Ref
from dulwich.repo import Repo

from bindery.engines.gitsync.transport import tree_blobs


def bare_repo(path: Path, files: Mapping[str, bytes] | None = None, *, branch: str = "main") -> str:
    """A bare repository at `path` (with one commit of `files` on `branch`, if given); its file:// URL."""
    Repo.init_bare(str(path), mkdir=True).close()
    if files is not None:
        commit_files(path, files, branch=branch)
    return path.resolve().as_uri()


def commit_files(path: Path, files: Mapping[str, bytes], *, branch: str = "main",
                 message: str = "Update docs") -> str:
    """Commit exactly `files` on `branch` (on top of its head, if any); the commit's id."""
    with Repo(str(path)) as repo:
        entries = []
        for name, data in files.items():
            blob = Blob.from_string(data)
            repo.object_store.add_object(blob)
            entries.append((name.encode(), blob.id, 0o100644))
        commit = Commit()
        commit.tree = commit_tree(repo.object_store, entries)
        ref = Ref(f"refs/heads/{branch}".encode())
        head = repo.refs.as_dict().get(ref)
        commit.parents = [head] if head else []
        commit.author = commit.committer = b"Test <test@example.com>"
        commit.author_time = commit.commit_time = int(time.time())
        commit.author_timezone = commit.commit_timezone = 0
        commit.message = message.encode()
        repo.object_store.add_object(commit)
        repo.refs[ref] = commit.id
        if not head:
            repo.refs.set_symbolic_ref(Ref(b"HEAD"), ref)
        return commit.id.decode()


def branch_head(path: Path, branch: str = "main") -> Commit:
    with Repo(str(path)) as repo:
        commit = repo.object_store[repo.refs[Ref(f"refs/heads/{branch}".encode())]]
        assert isinstance(commit, Commit)
        return commit


def branch_files(path: Path, branch: str = "main") -> dict[str, bytes]:
    """The files at the head of `branch`."""
    head = branch_head(path, branch)
    with Repo(str(path)) as repo:
        return {name: repo.object_store[sha].as_raw_string()
                for name, sha in tree_blobs(repo.object_store, head.tree).items()}


def random_bytes(size: int, chunk: int = 1 << 20) -> list[bytes]:
    """`size` incompressible bytes, in chunks (as dulwich stores a blob's text)."""
    return [os.urandom(min(chunk, size - start)) for start in range(0, size, chunk)]


def large_repo(path: Path, files: Mapping[str, bytes], sizes: Mapping[str, int]) -> str:
    """A bare repository with one commit of `files` and, for each path of `sizes`, a file of that many
    random bytes; its URL. Everything goes into one pack, as a server holds it, stored uncompressed (the
    point is the size), each large file made only as the pack is written."""
    Repo.init_bare(str(path), mkdir=True).close()
    with Repo(str(path)) as repo:
        config = repo.get_config()
        config.set((b"core",), b"compression", b"0")
        config.write_to_path()
    with Repo(str(path)) as repo:
        ids: dict[str, ObjectID] = {}

        def blobs() -> Iterator[UnpackedObject]:
            for name, data in files.items():
                blob = Blob.from_string(data)
                ids[name] = blob.id
                yield full_unpacked_object(blob)
            for name, size in sizes.items():
                blob = Blob()
                blob.chunked = random_bytes(size)
                ids[name] = blob.id
                yield full_unpacked_object(blob)

        repo.object_store.add_pack_data(len(files) + len(sizes), blobs())
        commit = Commit()
        commit.tree = commit_tree(repo.object_store, [(name.encode(), sha, 0o100644)
                                                      for name, sha in ids.items()])
        commit.parents = []
        commit.author = commit.committer = b"Test <test@example.com>"
        commit.author_time = commit.commit_time = int(time.time())
        commit.author_timezone = commit.commit_timezone = 0
        commit.message = b"Large docs"
        repo.object_store.add_object(commit)
        ref = Ref(b"refs/heads/main")
        repo.refs[ref] = commit.id
        repo.refs.set_symbolic_ref(Ref(b"HEAD"), ref)
    return path.resolve().as_uri()
