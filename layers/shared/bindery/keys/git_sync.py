"""Keys of Git Sync runs (see docs/git-sync.md).

A run (one import or export, started by the API, performed by the worker) lives in its space's
partition; run ids are time-ordered, so a Query of the prefix backwards lists the newest first:

    SPACE#{spaceId} / GITRUN#{runId}

The space's Git Sync state (`gitSync`, the spec's GitSyncState) is an attribute of the space item.
"""

from __future__ import annotations

from bindery.keys import Key

GIT_RUN_PREFIX = "GITRUN#"


def space_partition(space_id: str) -> str:
    return f"SPACE#{space_id}"


def git_run(space_id: str, run_id: str) -> Key:
    return {"PK": space_partition(space_id), "SK": f"{GIT_RUN_PREFIX}{run_id}"}
