"""Performing a Git Sync run (the worker's side; bindery.domain.git_sync.operations starts them).

Import: fetch the ref into a temporary on-disk repository (bindery.engines.gitsync.transport), turn the
project
directory's files into a tree and documents (bindery.engines.gitsync.importer), upload the new files one at a
time, streamed (import_changes.store_files), commit a revision, then — in ONE transaction — move the
space to it, record the space's `gitSync` state and finish the run. Until that transaction nothing
points at the new revision, so a failed import changes nothing anyone can see (at most unreferenced file
bytes were stored); a space edited meanwhile fails the transaction's condition and the run fails saying
so (the edit is never overwritten).

Export: read the space's current revision, write its files' bytes one at a time into a temporary on-disk
repository, turn it into files (bindery.engines.gitsync.exporter), commit them on the branch (its head as
parent; files outside the project directory kept by their blob ids, unread) and push from there; then record
`gitSync` and finish the run (one transaction).

Idempotency: the run is claimed first (pending → running, a conditional write); a message for a run
that is finished, or being performed by another worker, claims nothing and is dropped. A failure the
next attempt may not repeat (the network) puts the run back to pending and asks SQS to deliver the
message again, up to MAX_ATTEMPTS deliveries (the queue's maxReceiveCount); any other failure, or the
last attempt, records `failed` with a message whose URL credentials are removed.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from aws_lambda_powertools import Logger

from bindery.domain.git_sync import import_changes
from bindery.domain.git_sync.run_events import RunEvents
from bindery.domain.revisions import commit_revision, space_moved
from bindery.engines.content.tree import InvalidTree
from bindery.engines.gitsync import exporter, importer, transport
from bindery.platform import clock
from bindery.platform.errors import BinderyError
from bindery.platform.url_policy import check_url, redact_text
from bindery.store import Op, Transaction, TransactionConflict, blobs, git_runs
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from bindery.store import users as user_store
from bindery.store.git_runs import GitRun
from bindery.store.grants import next_updated_at
from bindery.store.spaces import Space

logger = Logger(service="git-sync")
MAX_ATTEMPTS = 3  # template.yaml: GitSyncQueue's maxReceiveCount
# A worker runs at most 600 s (template.yaml): a run claimed longer ago than this lost its worker.
STALE_AFTER = timedelta(seconds=900)
DEFAULT_AUTHOR = "Bindery <git-sync@bindery.invalid>"


class RetryLater(Exception):
    """The run went back to pending: the message must be delivered again (a batch item failure)."""


class RunFailed(Exception):
    """The run cannot succeed; `message` is what the run records (already free of credentials)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Claimed:
    run: GitRun
    claimed_at: str
    events: RunEvents


def perform(space_id: str, run_id: str, url: str, *, delivery: int) -> str | None:
    """Perform the run named by a message (its `delivery`-th delivery); its final status, or None when
    there was nothing to do. Raises RetryLater when the message must come back."""
    run = git_runs.get_run(space_id, run_id)
    claimed_at = clock.now_iso()
    stale = clock.iso(clock.now() - STALE_AFTER)
    if run is None or not git_runs.claim(space_id, run_id, claimed_at, stale):
        logger.info("nothing to do", extra={"run": run_id, "status": run.status if run else None})
        return None
    claimed = Claimed(run, claimed_at, RunEvents(space_id, run_id))
    try:
        check_url(url, "url")  # again: the settings or the host's addresses may have changed
        if run.kind == "import":
            _import(claimed, url)
        else:
            _export(claimed, url)
    except transport.GitTransportError as error:
        if error.retryable and delivery < MAX_ATTEMPTS:
            git_runs.release(space_id, run_id, claimed_at, clock.now_iso(), error.message)
            raise RetryLater(error.message) from None
        return _fail(claimed, error.message)
    except RunFailed as error:
        return _fail(claimed, error.message)
    except (BinderyError, InvalidTree) as error:
        return _fail(claimed, redact_text(getattr(error, "message", None) or str(error), url))
    except Exception as error:
        logger.exception("git sync run crashed",
                         extra={"run": run_id, "error": redact_text(str(error), url)})
        if delivery < MAX_ATTEMPTS:
            git_runs.release(space_id, run_id, claimed_at, clock.now_iso(), "Internal error")
            raise RetryLater("Internal error") from None
        return _fail(claimed, "Internal error while running the Git Sync operation")
    return "succeeded"


def _fail(claimed: Claimed, message: str) -> str:
    claimed.events.completed("failure")
    run = claimed.run
    # A conflict: another worker took the run over, and its outcome stands.
    with contextlib.suppress(TransactionConflict):
        Transaction(git_runs.finish_op(run.space_id, run.id, claimed.claimed_at, clock.now_iso(),
                                       status="failed", error=message)).commit()
    logger.info("git sync run failed", extra={"run": run.id, "error": message})
    return "failed"


def _live_space(space_id: str) -> Space:
    space = space_store.get_space(space_id)
    if space is None or space.deleted_at is not None:
        raise RunFailed("The space no longer exists")
    return space


def _git_state(run: GitRun, now: str) -> dict[str, Any]:
    """The space's `gitSync` (GitSyncState) after a successful run."""
    path = urlsplit(run.url).path.strip("/").removesuffix(".git")
    state: dict[str, Any] = {"repoName": path.rsplit("/", 2)[-1] if run.url.startswith("file:") else path,
                             "url": run.git_info.get("treeUrl") or run.url, "updatedAt": now}
    if run.git_info.get("provider"):
        state["installationProvider"] = run.git_info["provider"]
    return state


def _finish(claimed: Claimed, space_op: Op, *, revision: str, commit: str,
            warnings: list[str] | None = None) -> bool:
    """The space's change and the run's success, all or nothing; False when another worker took the run
    over (its outcome stands, and it records the run's events)."""
    run = claimed.run
    now = clock.now_iso()
    try:
        Transaction(space_op, git_runs.finish_op(run.space_id, run.id, claimed.claimed_at, now,
                                                 status="succeeded", revision=revision, commit=commit,
                                                 warnings=warnings)).commit()
    except TransactionConflict as conflict:
        if conflict.failed(git_runs.RUN_CLAIM):
            return False  # the run was taken over by another worker: nothing of this attempt is visible
        raise RunFailed(_why_not_advanced(run.space_id)) from None
    claimed.events.completed("success")
    return True


def _why_not_advanced(space_id: str) -> str:
    space = space_store.get_space(space_id)
    if space is None or space.deleted_at is not None:
        return "The space no longer exists; nothing was changed"
    if space.edit_mode == "locked":
        return "The space was locked meanwhile (editMode: locked); nothing was changed"
    return ("The space's content changed while importing (it is now at revision "
            f"{space.revision}); nothing was changed: start the import again")


# --- import -----------------------------------------------------------------------------------------------
def _import(claimed: Claimed, url: str) -> None:
    run = claimed.run
    space = _live_space(run.space_id)
    if space.edit_mode == "locked" and not run.standalone:
        raise RunFailed("The space is locked (editMode: locked): its content cannot be changed")
    current = revision_store.get_revision(space.id, space.revision)
    if current is None:
        raise RunFailed("The space's current revision cannot be read")
    previous = revision_store.load_tree(current)
    with transport.workspace() as repo:  # the repository on disk, removed once its files are stored
        snapshot = transport.fetch_snapshot(url, run.ref, repo)
        imported = importer.import_repository(snapshot.files, project_directory=run.project_directory,
                                              previous=previous)
        stored = import_changes.changes(imported, previous)  # only what the space does not hold yet
        stored = import_changes.store_files(space.id, stored)
    git: dict[str, Any] = {"oid": snapshot.commit, "message": snapshot.message, "createdByGitBook": False,
                           "ref": snapshot.ref}
    if run.git_info.get("commitUrl"):
        git["url"] = run.git_info["commitUrl"].rstrip("/") + "/" + snapshot.commit
    new = commit_revision(space.id, [current.id], stored.tree, stored.documents,
                          reusable_documents=stored.reusable_documents, files=stored.files, git=git)
    claimed.events.started(new, snapshot.commit)
    now = clock.now_iso()
    if run.standalone:
        # A revision for the caller to use (e.g. to compare or to merge); the space stays as it is.
        op = space_store.exists_op(space.id)
    else:
        op = revision_store.advance_op(space.id, current.id, new, next_updated_at(space.updated_at),
                                       git_sync=_git_state(run, now))
    if _finish(claimed, op, revision=new, commit=snapshot.commit, warnings=imported.warnings) \
            and not run.standalone:
        space_moved(space.id, new, setups=claimed.events.setups)


# --- export -----------------------------------------------------------------------------------------------
def _author(user_id: str) -> bytes:
    user = user_store.get_user(user_id)
    if user is None or not user.email:
        return DEFAULT_AUTHOR.encode()
    name = user.display_name.replace("<", "").replace(">", "").strip() or "Bindery user"
    return f"{name} <{user.email}>".encode()


def _export(claimed: Claimed, url: str) -> None:
    run = claimed.run
    space = _live_space(run.space_id)
    revision = revision_store.get_revision(space.id, space.revision)
    if revision is None:
        raise RunFailed("The space's current revision cannot be read")
    revision_id = revision.id
    tree = revision_store.load_tree(revision)
    documents = revision_store.revision_documents(space.id, tree)  # one BatchGetItem per 100
    with transport.workspace() as repo:  # file bytes go to disk one at a time, and are pushed from there
        files: dict[str, transport.StoredBlob] = {}
        for entry in tree.files:
            data = blobs.read_file(space.id, entry["digest"])
            if data is None:
                raise RunFailed(f"The bytes of file {entry['id']} are missing")
            files[entry["id"]] = transport.store_blob(repo, data)
            del data
        exported = exporter.export_repository(tree, documents.pages, documents.contents, files)
        pushed = transport.push_files(url, run.ref, project_directory=run.project_directory,
                                      files=exported, message=run.commit_message or "Export from Bindery",
                                      author=_author(run.created_by), repo=repo,
                                      on_commit=lambda commit: claimed.events.started(revision_id, commit))
    # The push is done: the run succeeds whatever happens to the space meanwhile (a deleted space just
    # gets no `gitSync`).
    state_op = space_store.git_sync_op(space.id, _git_state(run, clock.now_iso()))
    try:
        _finish(claimed, state_op, revision=revision.id, commit=pushed.commit)
    except RunFailed:
        Transaction(git_runs.finish_op(run.space_id, run.id, claimed.claimed_at, clock.now_iso(),
                                       status="succeeded", revision=revision.id,
                                       commit=pushed.commit)).commit()
        claimed.events.completed("success")


