"""Bindery's change list of a change request (GET …/changes): the changes shown, how many more there
are, and the conflicts a merge would meet now."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bindery.api.responses.change_requests import ChangeRequestChanges
from bindery.api.wire.content import layout
from bindery.engines.content.changes import Change
from bindery.engines.content.merge.trees import PageConflict
from bindery.store import blobs


def changes_to_wire(space_id: str, changes: Iterable[Change], *, more: int,
                    conflicts: Iterable[PageConflict]) -> ChangeRequestChanges:
    """GET CR/changes: the changes shown, how many more there are, what a merge would meet now."""

    def file_url(entry: Mapping[str, Any]) -> str:
        return blobs.file_url(space_id, entry["digest"], name=entry["name"],
                              content_type=entry["contentType"])

    out: dict[str, Any] = {"changes": [change.to_wire(file_url, layout) for change in changes]}
    if more:
        out["more"] = more
    out["conflicts"] = [{"kind": c.kind, "id": c.page_id, "title": c.title, "reason": c.reason}
                        for c in conflicts]
    return ChangeRequestChanges.model_validate(out)
