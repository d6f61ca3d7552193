"""Spaces. A deleted space keeps its item (with `deletedAt` and a TTL 7 days out) but leaves every listing
index, so that restore can bring it back intact and nothing needs a filter to hide it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.store import grants, table
from bindery.store.content_nodes import Node, org_count_op
from bindery.store.item_fields import ItemFields
from bindery.store.table import TTL_ATTRIBUTE, Item
from bindery.store.tree import named_update_op

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
    comments_resolved: int = 0
    change_requests: int = 0
    change_requests_open: int = 0
    change_requests_draft: int = 0
    change_requests_merged: int = 0
    # The spec's GitSyncState, set by a successful Git Sync run (domain/git_sync/runs.py).
    git_sync: dict[str, Any] | None = None

    kind = "space"

    _FIELDS = ItemFields(
        ("title", "title"), ("emoji", "emoji"), ("icon", "icon"), ("visibility", "visibility"),
        ("revision", "revision"), ("edit_mode", "editMode"), ("merge_rules", "mergeRules"),
        ("language", "language"), ("deleted_at", "deletedAt"), ("expires_at", TTL_ATTRIBUTE),
        ("comments", "comments"), ("comments_resolved", "commentsResolved"),
        ("change_requests", "changeRequests"),
        ("change_requests_open", "changeRequestsOpen"), ("change_requests_draft", "changeRequestsDraft"),
        ("change_requests_merged", "changeRequestsMerged"), ("git_sync", "gitSync"),
    )

    def change_requests_in(self, status: str) -> int:
        """How many of the space's change requests are in `status` (the listing's `count`)."""
        counted = {"open": self.change_requests_open, "draft": self.change_requests_draft,
                   "merged": self.change_requests_merged}
        if status in counted:
            return counted[status]
        # Archived: every change request the space numbered that is in none of the counted statuses.
        return self.change_requests - sum(counted.values())

    def to_item(self) -> Item:
        return {**self.node_attributes(listed=self.deleted_at is None), **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Space:
        return cls(**cls.node_values(item), **cls._FIELDS.values(item))


def space_key(space_id: str) -> keys.Key:
    """A space's key, for reads batched with other kinds (`batch_reads.items_by_key`)."""
    return keys.space(space_id)


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


def create_space_ops(space: Space) -> list[table.Op]:
    """The space and its first (empty) revision (and the check that its parent is still where it was),
    counted by its organization."""
    return [
        table.put_op(space.to_item(), "attribute_not_exists(PK)"),
        table.put_op(empty_revision_item(space.id, space.revision, space.created_at),
                     "attribute_not_exists(PK)"),
        *parent_check_ops(space),
        org_count_op(space.org_id, "space", 1),
    ]


def parent_check_ops(space: Space) -> list[table.Op]:
    """A space placed in a collection needs that collection to still be in the organization on the path
    it was read with: a parent deleted or moved meanwhile fails the transaction."""
    if not space.parent:
        return []
    return [table.condition_op(keys.collection(space.parent), "orgId = :org AND ancestors = :seen",
                               {":org": space.org_id, ":seen": space.ancestors[1:]})]


def put_space_op(space: Space, expected_updated_at: str) -> table.Op:
    """Replace the space item if nobody changed it since it was read (optimistic concurrency)."""
    return table.put_op(space.to_item(), "updatedAt = :seen",
                        ExpressionAttributeValues={":seen": expected_updated_at})


# --- listings -----------------------------------------------------------------------------------
LISTING_ATTRIBUTES = ("GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK")


def org_spaces_page(org_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """GSI1: one page of the organization's live spaces, by id (that is, creation order)."""
    return table.Query(partition=keys.org_spaces_partition(org_id), index="GSI1", limit=limit,
                       start_key=start_key).run()


def next_sibling_position(space: Space) -> str | None:
    """The position of the sibling right after `space`: the Query starts just past the space's own
    index entry, so it reads one item whatever the number of siblings."""
    start = {**keys.space(space.id),
             **{name: value for name, value in
                keys.content_gsi("space", space.org_id, space.id, space.parent, space.position).items()
                if name.startswith("GSI2")}}
    page = table.Query(partition=keys.children_partition(space.org_id, space.parent), index="GSI2",
                       limit=1, start_key=start).run()
    return str(page.items[0]["position"]) if page.items else None


# --- writes (every attribute is named through a placeholder: `position` is a reserved word) -------
def update_space_op(space: Space, changed: Space) -> table.Op:
    """Writes the settings of `changed` that differ from `space` (as read: so counters kept on the item
    by other requests are never overwritten) and its `updatedAt`, if the space is live and nobody changed
    it since it was read. Callers give `changed` a new `updated_at` (store.grants.next_updated_at) so
    that the next writer's condition notices this write."""
    sets, removes = Space._FIELDS.changes(space, changed)
    if changed.default_level != space.default_level:
        sets["defaultLevel"] = changed.default_level
    sets["updatedAt"] = changed.updated_at
    return named_update_op(keys.space(space.id), sets,
                           "attribute_exists(PK) AND attribute_not_exists(deletedAt) AND updatedAt = :seen",
                           {":seen": space.updated_at}, removes)


def exists_op(space_id: str) -> table.Op:
    """A check that the space item is still there (deleted or not), for a transaction."""
    return table.condition_op(keys.space(space_id), "attribute_exists(PK)")


def git_sync_op(space_id: str, state: dict[str, Any]) -> table.Op:
    """Set a live space's `gitSync` (GitSyncState), for a transaction."""
    return table.update_op(keys.space(space_id), "SET gitSync = :git", {":git": state},
                           "attribute_exists(PK) AND attribute_not_exists(deletedAt)")


def delete_space_op(space: Space, *, deleted_at: str, expires_at: int, updated_at: str) -> table.Op:
    """Mark a live space deleted, start its TTL and take it out of every listing, in one write, if it is
    unchanged since it was read (its grants map decides which counters the deletion moves)."""
    return named_update_op(keys.space(space.id),
                           {"deletedAt": deleted_at, TTL_ATTRIBUTE: expires_at, "updatedAt": updated_at},
                           "attribute_exists(PK) AND attribute_not_exists(deletedAt) AND updatedAt = :seen",
                           {":seen": space.updated_at}, LISTING_ATTRIBUTES)


def restore_space_op(space: Space, *, restored_at: str, now_epoch: int) -> table.Op:
    """Bring a deleted space back into the listings under `space.parent` at `space.position`, if it is
    still the same deletion, unchanged since it was read (`space.updated_at`: its grants decide which
    counters the restore moves), and its restore window has not closed."""
    assign: dict[str, Any] = {
        **keys.content_gsi("space", space.org_id, space.id, space.parent, space.position),
        "updatedAt": restored_at, "position": space.position, "ancestors": space.ancestors,
    }
    remove: tuple[str, ...] = ("deletedAt", TTL_ATTRIBUTE)
    if space.parent:
        assign["parent"] = space.parent
    else:
        remove += ("parent",)
    seen = {":deleted": space.deleted_at, ":now": now_epoch, ":seen": space.updated_at}
    condition = f"deletedAt = :deleted AND {TTL_ATTRIBUTE} > :now AND updatedAt = :seen"
    return named_update_op(keys.space(space.id), assign, condition, seen, remove)


# --- grants and the counters they move -------------------------------------------------------------
# The member's and the team's `spaces` counters count their direct grants on live spaces (store.grants):
# deleting a space takes its grants out of the counts, restoring puts them back, duplicating adds them.
def live_count_op(space: Space, delta: int) -> table.Op:
    """The organization's count of live spaces, for the transaction that deletes (-1) or restores (+1)."""
    return org_count_op(space.org_id, "space", delta)


def counter_ops(space: Space, entries: list[str], delta: int) -> list[table.Op]:
    """The `spaces` counters of the members and teams that `grants` map entries name."""
    return [grants.spaces_counter_op(space.org_id, *grants.split_map_key(entry), delta) for entry in entries]


# --- duplication --------------------------------------------------------------------------------------
def get_revision(space_id: str, revision_id: str) -> Item | None:
    return table.get(keys.revision(space_id, revision_id))


def copied_revision_item(source: Item | None, space_id: str, revision_id: str, created_at: str) -> Item:
    """The content of `source` as the first revision of another space (no history: `parents` is empty)."""
    if source is None:
        return empty_revision_item(space_id, revision_id, created_at)
    copied = {name: value for name, value in source.items()
              if not name.startswith("GSI") and name != TTL_ATTRIBUTE}
    copied.update({**keys.revision(space_id, revision_id), "id": revision_id, "spaceId": space_id,
                   "parents": [], "createdAt": created_at})
    return copied


def duplicate_space_ops(copy: Space, revision: Item) -> list[table.Op]:
    """The new space, its revision, its grant items and the counters they move, all written or none."""
    ops = [table.put_op(copy.to_item(), "attribute_not_exists(PK)"),
           table.put_op(revision, "attribute_not_exists(PK)"), *parent_check_ops(copy),
           org_count_op(copy.org_id, "space", 1)]
    for entry, role in copy.grants.items():
        grant = grants.Grant("space", copy.id, copy.org_id, *grants.split_map_key(entry), role)
        ops.append(grants.put_grant_op(grant, new=True))
    return ops + counter_ops(copy, list(copy.grants), 1)
