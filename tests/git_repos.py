"""Git repositories for the Git Sync tests: bare repositories on disk (in tmp_path), built and read
with dulwich, reached through `file://` URLs."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

from dulwich.index import commit_tree
from dulwich.objects import Blob, Commit
from dulwich.refs import Ref
from dulwich.repo import Repo

from bindery.gitsync.transport import tree_blobs


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
