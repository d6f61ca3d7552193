"""Git Sync as the API sees it: starting imports and exports, reading their runs and the space's state.

Every import or export is a *run*, performed in the background by the Git Sync worker (SQS). Starting
one checks everything that can be checked without the repository — the body, the URL policy
(bindery.platform.url_policy), the caller's permission — then writes the run (pending) and queues one
message naming it, and answers 204 with the run's `Location`. The worker then moves the run to running
and to succeeded or failed (bindery.domain.git_sync.runs); `GET …/git/runs/{runId}` shows where it is.

Permissions: starting a run needs the space's `triggerGitSync` flag (docs/permissions.md): the `edit`
role, in a space that is not locked. Reading runs and the Git info needs any role on the space.

The queued message carries the URL as given, credentials included (the worker needs them); the run item,
every response and every log line carry it redacted. SQS keeps a message only until it is processed
(or, in the dead-letter queue, for its retention period).

Results are the stored runs and the space's stored `gitSync` state; bindery.api.wire.git_sync shapes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import space_access
from bindery.domain.spaces.edit_mode import require_editable
from bindery.platform import clock, queues
from bindery.platform.config import settings
from bindery.platform.errors import NotFound
from bindery.platform.ids import new_id
from bindery.platform.messages import GitRunMessage
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.platform.url_policy import Resolver, check_url, redact, resolve_host
from bindery.requests.git_sync import ExportToGitRepository, ImportGitRepository
from bindery.store import git_runs
from bindery.store.git_runs import RETENTION_SECONDS, GitRun
from bindery.store.spaces import Space

NO_RUN = "No matching Git Sync run"
NO_GIT_INFO = "This space has not been synchronized with a Git repository"


def _editable_space(caller: Caller, space_id: str, action: str) -> Space:
    access = space_access(caller, space_id)
    access.require("edit", action)
    assert isinstance(access.node, Space)
    require_editable(access.node)
    return access.node


def start_run(caller: Caller, space_id: str, body: ImportGitRepository | ExportToGitRepository, *,
              resolver: Resolver = resolve_host) -> GitRun:
    """Write a pending run and queue it; the run (its id names it in `Location`)."""
    kind = "import" if isinstance(body, ImportGitRepository) else "export"
    space = _editable_space(caller, space_id, f"{kind} Git repositories")
    check_url(body.url, "url", resolver=resolver)
    queue_url = settings().required_queue_url("git_sync_queue_url")
    now = clock.now()
    run = GitRun(
        id=new_id(), space_id=space.id, kind=kind, url=redact(body.url), ref=body.ref,
        project_directory=body.repoProjectDirectory or "",
        standalone=bool(getattr(body, "standalone", False)),
        commit_message=getattr(body, "commitMessage", None),
        git_info=_git_info(body), created_by=caller.user_id, created_at=clock.iso(now),
        updated_at=clock.iso(now), expires_at=int(now.timestamp()) + RETENTION_SECONDS,
    )
    git_runs.put_run(run)
    try:
        queues.send(queue_url, GitRunMessage(spaceId=space.id, runId=run.id, url=body.url))
    except Exception:
        # Nothing will ever perform this run: say so on it rather than leave it pending for good.
        git_runs.abandon(space.id, run.id, clock.now_iso(), "The run could not be queued; start it again.")
        raise
    return run


def _git_info(body: ImportGitRepository | ExportToGitRepository) -> dict[str, Any]:
    """What the space's `gitSync` will show once the run succeeds (see git_runs.git_state)."""
    info: dict[str, Any] = {}
    if body.gitInfo is not None and body.gitInfo.provider:
        info["provider"] = body.gitInfo.provider
    tree_url = (body.gitInfo.url if body.gitInfo is not None else None) or body.repoTreeURL
    if tree_url:
        info["treeUrl"] = redact(tree_url)
    if body.repoCommitURL:
        info["commitUrl"] = redact(body.repoCommitURL)
    return info


def get_run(caller: Caller, space_id: str, run_id: str) -> GitRun:
    space_access(caller, space_id).require("read", "read this space's Git Sync runs")
    run = git_runs.get_run(space_id, run_id)
    if run is None:
        raise NotFound(NO_RUN)
    return run


def list_runs(caller: Caller, space_id: str, *, limit: int, page: str | None) -> Listing[GitRun]:
    """Newest first, one Query per page; the first page counts the runs with one `Select=COUNT` Query,
    and its cursor carries the count to the later pages."""
    space_access(caller, space_id).require("read", "read this space's Git Sync runs")
    scope = f"git-runs:{space_id}"
    start = open_page(scope, page)
    found = git_runs.runs_page(space_id, limit, start.start)
    items = [GitRun.from_item(item) for item in found.items]
    count = start.count if start.count is not None else git_runs.runs_count(space_id)
    return Listing(items, next_page(scope, found.last_key, count), count)


def get_git_info(caller: Caller, space_id: str) -> Mapping[str, Any]:
    """The space's Git Sync state (the space item's `gitSync`); 404 (as the spec allows) until a run has
    succeeded on the space."""
    access = space_access(caller, space_id)
    access.require("read", "read this space's Git info")
    state = access.node.git_sync if isinstance(access.node, Space) else None
    if not state:
        raise NotFound(NO_GIT_INFO)
    return state
