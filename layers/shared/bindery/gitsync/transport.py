"""Git over the wire with dulwich, in memory: no working copy, no git binary, nothing on disk.

`fetch_snapshot` reads the files of one ref (a shallow fetch of that ref only, into a MemoryRepo);
`push_files` commits a set of files on top of a branch and pushes that one commit. URLs must have passed
`url_policy.check_url` first: `get_transport_and_path` would otherwise also accept SSH and local paths.
Over HTTP, redirects are followed here, each only after its target passed `check_url` too (urllib3 alone
would follow a public host's redirect onto the deployment's own network).
Errors carry messages with the URL's credentials removed (`url_policy.redact_text`); `retryable` tells
whether trying again later may help (the network) or not (a missing ref, a damaged repository).
"""

from __future__ import annotations

import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

import urllib3
from dulwich.client import default_urllib3_manager, get_transport_and_path
from dulwich.errors import GitProtocolError, HangupException, NotGitRepository, SendPackError
from dulwich.objects import Blob, Commit, ObjectID, Tree
from dulwich.refs import Ref
from dulwich.repo import BaseRepo, MemoryRepo

from bindery.url_policy import check_url, redact, redact_text

MAX_FILES = 20_000
MAX_BYTES = 256 * 1024 * 1024  # the worker has 1 GB; the repository's files are held in memory twice
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
    files: dict[str, bytes]  # by path, "/"-separated, from the repository's root


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


def _fetch(url: str, wanted: list[Ref]) -> tuple[MemoryRepo, dict[Ref, ObjectID]]:
    """A shallow fetch of the first of `wanted` the remote has (none: no objects, refs only)."""
    repo = MemoryRepo()
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
    except Exception as error:  # noqa: BLE001 - dulwich raises many kinds; each becomes a run's message
        raise _failure(url, error) from None
    refs = {name: sha for name, sha in (result.refs or {}).items() if sha is not None}
    return repo, {name: refs[name] for name in chosen}


def read_tree(repo: BaseRepo, tree_id: ObjectID) -> dict[str, bytes]:
    """Every regular file under the tree, by path. Symbolic links and submodules have no place in a
    space and are left out."""
    files: dict[str, bytes] = {}
    total = 0
    for entry in repo.object_store.iter_tree_contents(tree_id):
        if entry.mode is None or entry.path is None or entry.sha is None or not stat.S_ISREG(entry.mode):
            continue
        blob = repo.object_store[entry.sha]
        assert isinstance(blob, Blob)
        data = blob.as_raw_string()
        total += len(data)
        if len(files) >= MAX_FILES or total > MAX_BYTES:
            raise GitTransportError(f"the repository is too large to import (more than {MAX_FILES} files "
                                    f"or {MAX_BYTES // (1024 * 1024)} MB)")
        files[entry.path.decode("utf-8", "surrogateescape")] = data
    return files


def fetch_snapshot(url: str, ref: str) -> Snapshot:
    """The files at `ref` ("refs/heads/main", or a short branch or tag name)."""
    repo, found = _fetch(url, candidate_refs(ref))
    if not found:
        raise GitTransportError(f"ref: {ref} does not exist in {redact(url)}")
    name, sha = next(iter(found.items()))
    commit: Any = repo.object_store[sha]
    while not isinstance(commit, Commit):  # an annotated tag: follow it to its commit
        if not hasattr(commit, "object"):
            raise GitTransportError(f"ref: {ref} does not name a commit")
        commit = repo.object_store[commit.object[1]]
    return Snapshot(commit=commit.id.decode(), message=commit.message.decode("utf-8", "replace").strip(),
                    ref=name.decode(), files=read_tree(repo, commit.tree))


# --- pushing ----------------------------------------------------------------------------------------------
def _build_tree(repo: MemoryRepo, files: Mapping[str, bytes]) -> ObjectID:
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
                blob = Blob.from_string(value)
                repo.object_store.add_object(blob)
                tree.add(name.encode(), FILE_MODE, blob.id)
        repo.object_store.add_object(tree)
        return tree.id

    return store(root)


def merged_files(existing: Mapping[str, bytes], project_directory: str,
                 exported: Mapping[str, bytes]) -> dict[str, bytes]:
    """The branch's files outside `project_directory` as they are, and inside it exactly `exported`
    (paths relative to that directory)."""
    prefix = project_directory.strip("/")
    inside = f"{prefix}/" if prefix else ""
    kept = {path: data for path, data in existing.items() if inside and not path.startswith(inside)}
    kept.update({f"{inside}{path.lstrip('/')}": data for path, data in exported.items()})
    return kept


def push_files(url: str, ref: str, *, project_directory: str, files: Mapping[str, bytes], message: str,
               author: bytes) -> Pushed:
    """Commit `files` under `project_directory` on the branch `ref` (its parent: the branch's head, if
    the branch exists) and push it. The push is refused if the branch moved since it was read: the
    remote is never rewound."""
    target = branch_ref(ref)
    repo, found = _fetch(url, [target])
    parent = found.get(target)
    existing: dict[str, bytes] = {}
    if parent is not None:
        head = repo.object_store[parent]
        assert isinstance(head, Commit)
        existing = read_tree(repo, head.tree)
    commit = Commit()
    commit.tree = _build_tree(repo, merged_files(existing, project_directory, files))
    commit.parents = [parent] if parent is not None else []
    commit.author, commit.committer = author, COMMITTER
    commit.author_time = commit.commit_time = int(time.time())
    commit.author_timezone = commit.commit_timezone = 0
    commit.encoding = b"UTF-8"
    commit.message = message.encode() + (b"" if message.endswith("\n") else b"\n")
    repo.object_store.add_object(commit)

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
