"""Spaces. A deleted space keeps its item (with `deletedAt` and a TTL 7 days out) but leaves every listing
index, so that restore can bring it back intact and nothing needs a filter to hide it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.store import table
from bindery.store.content_nodes import Node
from bindery.store.table import TTL_ATTRIBUTE, Item

RESTORE_WINDOW_SECONDS = 7 * 24 * 3600


@dataclass
class Space(Node):
    title: str = ""
    emoji: str | None = None
    icon: str | None = None
    visibility: str = "private"
    revision: str = ""
    edit_mode: str = "live"
    merge_rules: dict[str, Any] = field(default_factory=lambda: {"type": "inherit"})
    language: str | None = None
    deleted_at: str | None = None
    expires_at: int | None = None
    comments: int = 0
    change_requests: int = 0
    change_requests_open: int = 0
    change_requests_draft: int = 0

    kind = "space"

    _FIELDS = (
        ("title", "title"), ("emoji", "emoji"), ("icon", "icon"), ("visibility", "visibility"),
        ("revision", "revision"), ("edit_mode", "editMode"), ("merge_rules", "mergeRules"),
        ("language", "language"), ("deleted_at", "deletedAt"), ("expires_at", TTL_ATTRIBUTE),
        ("comments", "comments"), ("change_requests", "changeRequests"),
        ("change_requests_open", "changeRequestsOpen"), ("change_requests_draft", "changeRequestsDraft"),
    )

    def to_item(self) -> Item:
        item = self.node_attributes(listed=self.deleted_at is None)
        for attr, name in self._FIELDS:
            value = getattr(self, attr)
            if value is not None:
                item[name] = value
        return item

    @classmethod
    def from_item(cls, item: Item) -> Space:
        values = {attr: item[name] for attr, name in cls._FIELDS if name in item}
        return cls(**cls.node_values(item), **values)


def get_space(space_id: str) -> Space | None:
    """The space, deleted ones included while they can be restored (expired ones read as gone)."""
    item = table.get(keys.space(space_id))
    return Space.from_item(item) if item else None


def get_spaces(space_ids: list[str]) -> dict[str, Space]:
    ids = list(dict.fromkeys(space_ids))
    found: dict[str, Space] = {}
    for start in range(0, len(ids), 100):
        for item in table.batch_get([keys.space(sid) for sid in ids[start:start + 100]]):
            found[item["id"]] = Space.from_item(item)
    return found


def empty_revision_item(space_id: str, revision_id: str, created_at: str) -> Item:
    """A space's first revision: no pages, files or reusable contents yet."""
    return {**keys.revision(space_id, revision_id), "type": "revision", "id": revision_id,
            "spaceId": space_id, "parents": [], "pages": [], "files": [], "reusableContents": [],
            "variables": {}, "createdAt": created_at, "revisionType": "edits"}


def create_space_ops(space: Space) -> list[dict[str, Any]]:
    """The space and its first (empty) revision."""
    return [
        table.put_op(space.to_item(), "attribute_not_exists(PK)"),
        table.put_op(empty_revision_item(space.id, space.revision, space.created_at),
                     "attribute_not_exists(PK)"),
    ]


def put_space_op(space: Space, expected_updated_at: str) -> dict[str, Any]:
    """Replace the space item if nobody changed it since it was read (optimistic concurrency)."""
    return table.put_op(space.to_item(), "updatedAt = :seen",
                        ExpressionAttributeValues={":seen": expected_updated_at})
