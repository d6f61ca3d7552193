"""Git Sync: a run (a Bindery extension, `object: "git-run"`) and its listing; the space's GitSyncState
is bindery.api.responses.spaces.GitSyncState."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import Location, Timestamp


class GitSyncRun(WireModel):
    """`error`, `revision` and `commit` are always sent, `null` until known; `standalone` and `warnings`
    belong to imports."""

    object: Literal["git-run"]
    id: str
    kind: Literal["import", "export"]
    status: Literal["pending", "running", "succeeded", "failed"]
    url: str
    ref: str
    projectDirectory: str
    createdAt: Timestamp
    updatedAt: Timestamp
    error: str | None
    revision: str | None
    commit: str | None
    urls: Location
    standalone: Omitted[bool] = None
    warnings: Omitted[list[str]] = None


class GitSyncRunList(ListPage):
    items: list[GitSyncRun]
