"""Data access for search and link checks: the per-revision pointer items (keys.search) and the bulk
read of a revision's documents an index build needs.

Pointer items are written once (`attribute_not_exists(PK)`): when two builders race on one revision, the
loser's write is dropped, not an error, and the loser takes the winner's pointer. Their files answer alike
(an incremental build equals a full one) but need not be the same bytes, so every function must serve
the one file the pointer names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from botocore.exceptions import ClientError

from bindery.keys import search as search_keys
from bindery.platform.aws import dynamodb_table
from bindery.platform.clock import now_iso
from bindery.store import blobs, table

BATCH = 100  # BatchGetItem's limit


@dataclass(frozen=True)
class IndexPointer:
    space_id: str
    revision_id: str
    digest: str  # SHA-256 of the SQLite file
    size: int
    pages: int

    def to_item(self) -> table.Item:
        return {**search_keys.search_index(self.space_id, self.revision_id), "type": "search-index",
                "spaceId": self.space_id, "revisionId": self.revision_id, "digest": self.digest,
                "size": self.size, "pages": self.pages, "builtAt": now_iso()}

    @classmethod
    def from_item(cls, item: table.Item) -> IndexPointer:
        return cls(space_id=item["spaceId"], revision_id=item["revisionId"], digest=item["digest"],
                   size=int(item["size"]), pages=int(item["pages"]))


def _put_once(item: table.Item) -> bool:
    """Whether the item was written (False: one was already there)."""
    try:
        dynamodb_table().put_item(Item=item, ConditionExpression="attribute_not_exists(PK)")
    except ClientError as error:
        if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
            raise
        return False
    return True


def get_index_pointer(space_id: str, revision_id: str) -> IndexPointer | None:
    item = blobs.get_immutable_item(search_keys.search_index(space_id, revision_id))
    return IndexPointer.from_item(item) if item else None


def index_pointers(wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], IndexPointer]:
    """The pointers of several (space, revision) pairs: one BatchGetItem per 100."""
    pairs = list(dict.fromkeys(wanted))
    found: dict[tuple[str, str], IndexPointer] = {}
    for start in range(0, len(pairs), BATCH):
        for item in table.batch_get([search_keys.search_index(s, r) for s, r in pairs[start:start + BATCH]]):
            pointer = IndexPointer.from_item(item)
            found[(pointer.space_id, pointer.revision_id)] = pointer
    return found


@dataclass(frozen=True)
class Built:
    """What exists of a revision's derived data, and the index of the revision it may be built from."""

    index: IndexPointer | None
    report: str | None  # the link report's digest
    parent_index: IndexPointer | None


def built(space_id: str, revision_id: str, parent_id: str | None) -> Built:
    """The revision's index pointer and link report, and its parent's index pointer: one (strongly
    consistent) BatchGetItem, where reading them one by one costs up to five GetItems."""
    wanted = [search_keys.search_index(space_id, revision_id), search_keys.link_report(space_id, revision_id)]
    if parent_id is not None:
        wanted.append(search_keys.search_index(space_id, parent_id))
    items = {(item["SK"]): item for item in table.batch_get(wanted)}

    def pointer(revision: str | None) -> IndexPointer | None:
        item = items.get(search_keys.search_index(space_id, revision)["SK"]) if revision else None
        return IndexPointer.from_item(item) if item else None

    report = items.get(search_keys.link_report(space_id, revision_id)["SK"])
    return Built(pointer(revision_id), str(report["report"]) if report else None, pointer(parent_id))


def put_index_pointer(pointer: IndexPointer) -> IndexPointer:
    """The revision's pointer: `pointer`, or the one another builder stored first (one more GetItem)."""
    if _put_once(pointer.to_item()):
        return pointer
    stored = get_index_pointer(pointer.space_id, pointer.revision_id)
    return stored if stored is not None else pointer


def get_report_digest(space_id: str, revision_id: str) -> str | None:
    item = blobs.get_immutable_item(search_keys.link_report(space_id, revision_id))
    return str(item["report"]) if item else None


def put_report_digest(space_id: str, revision_id: str, digest: str) -> None:
    _put_once({**search_keys.link_report(space_id, revision_id), "type": "link-report",
               "spaceId": space_id, "revisionId": revision_id, "report": digest, "builtAt": now_iso()})
