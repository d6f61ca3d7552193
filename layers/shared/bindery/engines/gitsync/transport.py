"""Git over the wire with dulwich, into an on-disk repository: no working copy, no git binary.

Everything is fetched into a bare repository in a temporary directory (`workspace()`, in the function's
ephemeral storage, removed afterwards whatever happens), so a repository's size costs disk, not memory.
`fetch_snapshot` reads one ref (a shallow fetch of that ref only): its files are a
`repository_files.StoredFiles`, read one at a time when the importer asks. `push_files` commits a set of
files on top of a branch and pushes that one commit; files outside the project directory are kept by
their blob ids, never read. URLs must have passed `url_policy.check_url` first: `get_transport_and_path`
would otherwise also accept SSH and local paths. Over HTTP, redirects are followed here, each only after
its target passed `check_url` too (urllib3 alone would follow a public host's redirect onto the
deployment's own network).
Errors carry messages with the URL's credentials removed (`url_policy.redact_text`); `retryable` tells
whether trying again later may help (the network) or not (a missing ref, a damaged repository).
"""

from __future__ import annotations

import errno
import stat
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urljoin

import urllib3
from dulwich.client import default_urllib3_manager, get_transport_and_path
from dulwich.errors import GitProtocolError, HangupException, NotGitRepository, SendPackError
from dulwich.object_store import BaseObjectStore
from dulwich.objects import Blob, Commit, ObjectID, Tree
from dulwich.refs import Ref
from dulwich.repo import Repo

from bindery.engines.gitsync.repository_files import RepositoryFiles, StoredFiles
from bindery.platform.url_policy import check_url, redact, redact_text

FILE_MODE = 0o100644
COMMITTER = b"Bindery <git-sync@bindery.invalid>"
MAX_REDIRECTS = 5


class GitTransportError(Exception):
    retryable = False

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TransientGitError(GitTransportError):
    """The repository could not be reached or the connection broke: a later attempt may succeed."""

    retryable = True


@dataclass(frozen=True)
class Snapshot:
    commit: str  # hex object id
    message: str
    ref: str  # the full ref name read
    files: RepositoryFiles  # by path, "/"-separated, from the repository's root; read on access


@dataclass(frozen=True)
class StoredBlob:
    """A file already written to the workspace's object store (an export's file bytes)."""

    id: ObjectID


FileValue = TypeVar("FileValue")


@dataclass(frozen=True)
class Pushed:
    commit: str
    parent: str | None
    ref: str


class CheckedRedirects(urllib3.PoolManager):
    """A pool manager that follows redirects itself, and only to URLs the URL policy allows."""

    def urlopen(self, method: str, url: str, redirect: bool = True,  # type: ignore[override]
                **kw: Any) -> Any:
        for _ in range(MAX_REDIRECTS + 1):
            response = super().urlopen(method, url, redirect=False, **kw)
            location = response.get_redirect_location() if redirect else None
            if not location:
                return response
            target = urljoin(url, location)
            check_url(target, "url")
            response.drain_conn()
            if response.status == 303:  # see other: a GET without the body
                method = "GET"
                kw.pop("body", None)
            url = target
        raise GitProtocolError(f"more than {MAX_REDIRECTS} redirects from {redact(url)}")


def _transport(url: str) -> tuple[Any, str]:
    """dulwich's client for `url` (HTTP(S) through CheckedRedirects) and the path on it."""
    if url.lower().startswith(("http://", "https://")):
        # dulwich's own set-up (user agent, certificates); a configured HTTP proxy gets a ProxyManager
        # instead, and then the proxy is what limits where requests go.
        manager: Any = default_urllib3_manager(None, pool_manager_cls=CheckedRedirects, base_url=url)
        return get_transport_and_path(url, pool_manager=manager)
    return get_transport_and_path(url)


def candidate_refs(ref: str) -> list[Ref]:
    """The full names `ref` may stand for, as git resolves a short name: itself, a branch, a tag."""
    if ref.startswith("refs/"):
        return [Ref(ref.encode())]
    return [Ref(f"refs/heads/{ref}".encode()), Ref(f"refs/tags/{ref}".encode()), Ref(ref.encode())]


def branch_ref(ref: str) -> Ref:
    return Ref((ref if ref.startswith("refs/") else f"refs/heads/{ref}").encode())


def _failure(url: str, error: Exception) -> GitTransportError:
    text = redact_text(str(error) or type(error).__name__, url)
    if isinstance(error, NotGitRepository):
        return GitTransportError(f"{redact(url)} is not a Git repository")
    if isinstance(error, HangupException | ConnectionError | TimeoutError):
        return TransientGitError(f"{redact(url)} could not be reached: {text}")
    if isinstance(error, GitProtocolError):
        # HTTP 5xx and broken connections end up here as well as refusals: worth one more attempt.
        return TransientGitError(f"{redact(url)}: {text}")
    return GitTransportError(f"{redact(url)}: {text}")


@contextmanager
def workspace() -> Iterator[Repo]:
    """A bare repository in a new temporary directory (TMPDIR: the function's ephemeral storage),
    removed on leaving, whatever happened."""
    with tempfile.TemporaryDirectory(prefix="bindery-git-") as directory:
        repo = Repo.init_bare(directory)
        config = repo.get_config()
        # What this repository compresses itself (an export's blobs and the pack it pushes, a local
        # fetch's pack) is mostly images and videos, which zlib cannot shrink but spends a second or more
        # of CPU per 20 MB on, at any level; the Markdown is small. So zlib only stores (level 0).
        config.set((b"core",), b"compression", b"0")
        config.write_to_path()
        repo.close()
        repo = Repo(directory)  # the object store reads the levels when it opens
        try:
            yield repo
        finally:
            repo.close()


def _fetch(url: str, wanted: list[Ref], repo: Repo) -> dict[Ref, ObjectID]:
    """A shallow fetch into `repo` of the first of `wanted` the remote has (none: no objects, refs
    only)."""
    chosen: list[Ref] = []

    def determine_wants(refs: Mapping[Ref, ObjectID], depth: int | None = None) -> list[ObjectID]:
        for name in wanted:
            if refs.get(name):
                chosen.append(name)
                return [refs[name]]
        return []

    try:
        client, path = _transport(url)
        result = client.fetch(path, repo, determine_wants=determine_wants, depth=1)
    except GitTransportError:
        raise
    except OSError as error:
        if error.errno == errno.ENOSPC:
            raise GitTransportError(f"{redact(url)} is too large to fetch: the worker's storage is full"
                                    ) from None
        raise _failure(url, error) from None
    except Exception as error:  # noqa: BLE001 - dulwich raises many kinds; each becomes a run's message
        raise _failure(url, error) from None
    refs = {name: sha for name, sha in (result.refs or {}).items() if sha is not None}
    return {name: refs[name] for name in chosen}


def tree_blobs(store: BaseObjectStore, tree_id: ObjectID) -> dict[str, ObjectID]:
    """The blob id of every regular file under the tree, by path; nothing is read but trees. Symbolic
    links and submodules have no place in a space and are left out."""
    blobs: dict[str, ObjectID] = {}
    for entry in store.iter_tree_contents(tree_id):
        if entry.mode is None or entry.path is None or entry.sha is None or not stat.S_ISREG(entry.mode):
            continue
        blobs[entry.path.decode("utf-8", "surrogateescape")] = entry.sha
    return blobs


def fetch_snapshot(url: str, ref: str, repo: Repo) -> Snapshot:
    """The files at `ref` ("refs/heads/main", or a short branch or tag name), fetched into `repo` (a
    `workspace()`): they are readable while it is."""
    found = _fetch(url, candidate_refs(ref), repo)
    if not found:
        raise GitTransportError(f"ref: {ref} does not exist in {redact(url)}")
    name, sha = next(iter(found.items()))
    commit: Any = repo.object_store[sha]
    while not isinstance(commit, Commit):  # an annotated tag: follow it to its commit
        if not hasattr(commit, "object"):
            raise GitTransportError(f"ref: {ref} does not name a commit")
        commit = repo.object_store[commit.object[1]]
    files = StoredFiles(repo.object_store, tree_blobs(repo.object_store, commit.tree))
    return Snapshot(commit=commit.id.decode(), message=commit.message.decode("utf-8", "replace").strip(),
                    ref=name.decode(), files=files)


# --- pushing ----------------------------------------------------------------------------------------------
def store_blob(repo: Repo, data: bytes) -> StoredBlob:
    """Write a file's bytes to the workspace's object store (so that an export holds one file's bytes at
    a time, not all of them)."""
    blob = Blob.from_string(data)
    repo.object_store.add_object(blob)
    return StoredBlob(blob.id)


def _build_tree(repo: Repo, files: Mapping[str, bytes | StoredBlob]) -> ObjectID:
    """Store blobs and trees for `files` (nested by path); the root tree's id."""
    root: dict[str, Any] = {}
    for path, data in files.items():
        parts = [part for part in path.split("/") if part]
        node = root
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise GitTransportError(f"{path}: a file and a directory share the name {part}")
            node = child
        node[parts[-1]] = data

    def store(node: dict[str, Any]) -> ObjectID:
        tree = Tree()
        for name, value in node.items():
            if isinstance(value, dict):
                tree.add(name.encode(), stat.S_IFDIR, store(value))
            else:
                stored = value if isinstance(value, StoredBlob) else store_blob(repo, value)
                tree.add(name.encode(), FILE_MODE, stored.id)
        repo.object_store.add_object(tree)
        return tree.id

    return store(root)


def merged_files(existing: Mapping[str, FileValue], project_directory: str,
                 exported: Mapping[str, FileValue]) -> dict[str, FileValue]:
    """The branch's files outside `project_directory` as they are, and inside it exactly `exported`
    (paths relative to that directory)."""
    prefix = project_directory.strip("/")
    inside = f"{prefix}/" if prefix else ""
    kept = {path: data for path, data in existing.items() if inside and not path.startswith(inside)}
    kept.update({f"{inside}{path.lstrip('/')}": data for path, data in exported.items()})
    return kept


def push_files(url: str, ref: str, *, project_directory: str, files: Mapping[str, bytes | StoredBlob],
               message: str, author: bytes, repo: Repo,
               on_commit: Callable[[str], None] | None = None) -> Pushed:
    """Commit `files` under `project_directory` on the branch `ref` (its parent: the branch's head, if
    the branch exists) and push it, from `repo` (a `workspace()`, which may already hold some of the
    files' blobs: `store_blob`). The push is refused if the branch moved since it was read: the remote
    is never rewound. `on_commit` hears the commit's id once it is made, before it is pushed."""
    target = branch_ref(ref)
    found = _fetch(url, [target], repo)
    parent = found.get(target)
    existing: dict[str, StoredBlob] = {}
    if parent is not None:
        head = repo.object_store[parent]
        assert isinstance(head, Commit)
        existing = {path: StoredBlob(sha) for path, sha in tree_blobs(repo.object_store, head.tree).items()}
    commit = Commit()
    merged: dict[str, bytes | StoredBlob] = merged_files(existing, project_directory, files)
    commit.tree = _build_tree(repo, merged)
    commit.parents = [parent] if parent is not None else []
    commit.author, commit.committer = author, COMMITTER
    commit.author_time = commit.commit_time = int(time.time())
    commit.author_timezone = commit.commit_timezone = 0
    commit.encoding = b"UTF-8"
    commit.message = message.encode() + (b"" if message.endswith("\n") else b"\n")
    repo.object_store.add_object(commit)
    if on_commit is not None:
        on_commit(commit.id.decode())

    def update_refs(refs: dict[Ref, ObjectID]) -> dict[Ref, ObjectID]:
        if refs.get(target) != parent:
            raise GitTransportError(f"ref: {ref} moved in {redact(url)} while exporting; nothing was pushed")
        return {target: commit.id}

    def generate_pack_data(have: Any, want: Any, *, ofs_delta: bool = False, progress: Any = None) -> Any:
        return repo.generate_pack_data(set(have), set(want), progress=progress, ofs_delta=ofs_delta)

    try:
        client, path = _transport(url)
        result = client.send_pack(path.encode(), update_refs, generate_pack_data)
    except GitTransportError:
        raise
    except SendPackError as error:
        raise GitTransportError(f"{redact(url)} refused the push: {redact_text(str(error), url)}") from None
    except Exception as error:  # noqa: BLE001 - see _fetch
        raise _failure(url, error) from None
    failed = {name: status for name, status in (result.ref_status or {}).items() if status}
    if failed:
        raise GitTransportError(f"{redact(url)} refused the push of {ref}: "
                                f"{redact_text('; '.join(failed.values()), url)}")
    return Pushed(commit=commit.id.decode(), parent=parent.decode() if parent else None, ref=target.decode())
