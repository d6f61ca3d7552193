"""Shapes of Git Sync: a run (a Bindery extension, `object: "git-run"`) and the spec's GitSyncState."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.api.responses.git_sync import GitSyncRun
from bindery.api.responses.spaces import GitSyncState
from bindery.api.wire.spaces import git_state_fields
from bindery.api.wire.urls import api_url
from bindery.store.git_runs import GitRun


def run_location(space_id: str, run_id: str) -> str:
    return api_url(f"/spaces/{space_id}/git/runs/{run_id}")


def run_to_wire(run: GitRun) -> GitSyncRun:
    """`url` never holds credentials (runs store it redacted); `error` is set once a run failed,
    `revision` once an import made one (`standalone`: the space was left where it was), `commit` once
    the repository's commit is known (the one imported, or the one an export pushed). An import's
`warnings` name what it read approximately (a file not valid UTF-8, Markdown it could not express)."""
    body: dict[str, Any] = {
        "object": "git-run", "id": run.id, "kind": run.kind, "status": run.status, "url": run.url,
        "ref": run.ref, "projectDirectory": run.project_directory, "createdAt": run.created_at,
        "updatedAt": run.updated_at, "error": run.error, "revision": run.revision, "commit": run.commit,
        "urls": {"location": run_location(run.space_id, run.id)},
    }
    if run.kind == "import":
        body["standalone"] = run.standalone
        body["warnings"] = run.warnings
    return GitSyncRun.model_validate(body)


def git_info_to_wire(state: Mapping[str, Any]) -> GitSyncState:
    """getSpaceGitInfo's answer: the space's GitSyncState."""
    return GitSyncState.model_validate(git_state_fields(state))
