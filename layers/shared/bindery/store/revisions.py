"""Revisions: one immutable item `REVISION#{id}` in the space's partition, naming its tree blob.

    {PK: SPACE#{spaceId}, SK: REVISION#{id}, type: "revision", id, spaceId, parents, createdAt,
     revisionType ("edits", "merge", "update"), mergedFrom? (a merge: the change request's id), git?,
     tree: <digest of the tree blob>}

A space's first revision (store.spaces.empty_revision_item) carries its empty tree inline (`pages`,
`files`, `reusableContents`, `variables` attributes) instead of `tree`; both forms read the same.

Revision items and trees never change, so both are cached in the process (bounded LRUs). The space's
`revision` attribute is the one mutable thing: `advance_op` moves it with an optimistic condition.
"""

from __future__ import annotations

import json
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.engines.content.tree import Tree, empty_tree
from bindery.store import blobs, table
from bindery.store.objects import object_store
from bindery.store.table import Item

REVISIONS_CACHED = 1024
TREES_CACHED = 16  # indexed trees; their values are shared with the blob cache


class _Recent:
    """A small LRU by entry count."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> Any:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: tuple[str, str], value: Any) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_revisions = _Recent(REVISIONS_CACHED)
_trees = _Recent(TREES_CACHED)


def clear_cache() -> None:
    """Forget cached revisions, trees and blobs (tests measuring cold reads)."""
    _revisions.clear()
    _trees.clear()
    blobs.clear_cache()


@dataclass(frozen=True)
class Revision:
    id: str
    space_id: str
    created_at: str
    parents: list[str] = field(default_factory=list)
    type: str = "edits"
    git: dict[str, Any] | None = None
    tree: str | None = None  # the tree blob's digest; None: the tree is `inline`
    merged_from: str | None = None  # a `merge` revision: the id of the change request merged
    inline: dict[str, Any] | None = None

    def to_item(self) -> Item:
        item: Item = {**keys.revision(self.space_id, self.id), "type": "revision", "id": self.id,
                      "spaceId": self.space_id, "parents": self.parents, "createdAt": self.created_at,
                      "revisionType": self.type}
        if self.tree is not None:
            item["tree"] = self.tree
        else:
            item.update(self.inline or empty_tree())
        if self.git is not None:
            item["git"] = self.git
        if self.merged_from is not None:
            item["mergedFrom"] = self.merged_from
        return item

    @classmethod
    def from_item(cls, item: Item) -> Revision:
        inline = None if "tree" in item else {
            name: item.get(name, default) for name, default in empty_tree().items()}
        return cls(id=item["id"], space_id=item["spaceId"], created_at=item["createdAt"],
                   parents=list(item.get("parents") or []), type=item.get("revisionType", "edits"),
                   git=item.get("git"), tree=item.get("tree"), inline=inline,
                   merged_from=item.get("mergedFrom"))


def get_revision(space_id: str, revision_id: str) -> Revision | None:
    """From the cache, or one GetItem (eventually consistent unless it misses)."""
    cached: Revision | None = _revisions.get((space_id, revision_id))
    if cached is not None:
        return cached
    item = blobs.get_immutable_item(keys.revision(space_id, revision_id))
    if item is None or item.get("type") != "revision":
        return None
    revision = Revision.from_item(item)
    _revisions.put((space_id, revision_id), revision)
    return revision


def put_revision_op(revision: Revision) -> table.Op:
    return table.put_op(revision.to_item(), "attribute_not_exists(PK)")


def put_revision(revision: Revision) -> None:
    """One PutItem; a revision id is never reused."""
    from bindery.platform.aws import dynamodb_table

    dynamodb_table().put_item(Item=revision.to_item(), ConditionExpression="attribute_not_exists(PK)")


def load_tree(revision: Revision) -> Tree:
    """The revision's indexed tree: cached, else its blob (see blobs.get_value)."""
    if revision.tree is None:
        return Tree(revision.inline or empty_tree())
    key = (revision.space_id, revision.tree)
    cached: Tree | None = _trees.get(key)
    if cached is None:
        cached = Tree(blobs.get_value(revision.space_id, revision.tree))
        _trees.put(key, cached)
    return cached


# --- every document of a revision -------------------------------------------------------------------------
BATCH = 100  # BatchGetItem's limit


@dataclass(frozen=True)
class RevisionDocuments:
    pages: dict[str, Any]     # each document page's body by page id (pages without a body left out)
    contents: dict[str, Any]  # each reusable content's document by its id


def revision_documents(space_id: str, tree: Tree) -> RevisionDocuments:
    """Every document of a revision, its pages' and its reusable contents', in one batched read."""
    pages, contents = tree.page_documents(), tree.content_documents()
    values = documents(space_id, [*pages.values(), *contents.values()])
    return RevisionDocuments({page_id: values[digest] for page_id, digest in pages.items()},
                             {content_id: values[digest] for content_id, digest in contents.items()})


def documents(space_id: str, digests: Iterable[str]) -> dict[str, Any]:
    """Decoded document blobs by digest: one BatchGetItem per 100 (plus an S3 GET per value too large for
    an item). Whole-revision work (a search index, a Git export) reads every document once; going through
    `blobs.get_value` would cost one GetItem each and flush the request path's blob cache."""
    wanted = list(dict.fromkeys(digests))
    found: dict[str, Any] = {}
    store = object_store()
    for start in range(0, len(wanted), BATCH):
        for item in table.batch_get([keys.blob(space_id, d) for d in wanted[start:start + BATCH]]):
            digest = str(item["SK"]).removeprefix("BLOB#")
            if "data" in item:
                data: Any = item["data"]
                packed: bytes | None = bytes(getattr(data, "value", data))
            else:
                packed = store.get(blobs.blob_object_key(space_id, digest))
            if packed is None:
                raise blobs.MissingBlob(f"blob {digest} of space {space_id}: its object is missing")
            found[digest] = json.loads(zlib.decompress(packed))
    missing = [digest for digest in wanted if digest not in found]
    if missing:
        raise blobs.MissingBlob(f"space {space_id} lacks {len(missing)} document blobs")
    return found


# --- the space's pointer ----------------------------------------------------------------------------------
ADVANCE_CONDITION = ("attribute_exists(PK) AND #revision = :expected AND attribute_not_exists(deletedAt) "
                     "AND (attribute_not_exists(editMode) OR editMode <> :locked)")


SPACE_POINTER = "space-pointer"  # the name of `advance_op` in a transaction


def advance_op(space_id: str, expected: str, new: str, updated_at: str, *,
               counters: dict[str, int] | None = None, git_sync: dict[str, Any] | None = None) -> table.Op:
    """Point a live, unlocked space at `new` if it still points at `expected` (for a transaction), and
    in the same update (a transaction may touch the space item only once) set its `gitSync` state and
    ADD `counters` (attribute: delta)."""
    expression = "SET #revision = :new, updatedAt = :now"
    names = {"#revision": "revision"}
    values: dict[str, Any] = {":new": new, ":now": updated_at, ":expected": expected, ":locked": "locked"}
    if git_sync is not None:
        expression += ", gitSync = :git"
        values[":git"] = git_sync
    if counters:
        expression += " ADD " + ", ".join(f"#c{i} :c{i}" for i in range(len(counters)))
        for index, (name, delta) in enumerate(counters.items()):
            names[f"#c{index}"] = name
            values[f":c{index}"] = delta
    return table.update_op(keys.space(space_id), expression, values, ADVANCE_CONDITION, names,
                           name=SPACE_POINTER)


def advance(space_id: str, expected: str, new: str, updated_at: str) -> bool:
    """One UpdateItem (see advance_op); False when its condition failed."""
    from botocore.exceptions import ClientError

    from bindery.platform.aws import dynamodb_table

    update = advance_op(space_id, expected, new, updated_at)["Update"]
    try:
        dynamodb_table().update_item(
            Key=update["Key"], UpdateExpression=update["UpdateExpression"],
            ConditionExpression=update["ConditionExpression"],
            ExpressionAttributeNames=update["ExpressionAttributeNames"],
            ExpressionAttributeValues=update["ExpressionAttributeValues"])
    except ClientError as error:
        if error.response["Error"]["Code"] == "ConditionalCheckFailedException":
            return False
        raise
    return True
