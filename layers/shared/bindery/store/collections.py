"""Collections: groups of spaces and of other collections."""

from __future__ import annotations

from dataclasses import dataclass

from bindery import keys
from bindery.store import table
from bindery.store.content_nodes import Node
from bindery.store.table import Item


@dataclass
class Collection(Node):
    title: str = ""
    description: str | None = None

    kind = "collection"

    def to_item(self) -> Item:
        item = self.node_attributes()
        item["title"] = self.title
        if self.description is not None:
            item["description"] = self.description
        return item

    @classmethod
    def from_item(cls, item: Item) -> Collection:
        return cls(**cls.node_values(item), title=item.get("title", ""), description=item.get("description"))


def get_collection(collection_id: str) -> Collection | None:
    item = table.get(keys.collection(collection_id))
    return Collection.from_item(item) if item else None


def get_collections(collection_ids: list[str]) -> dict[str, Collection]:
    ids = list(dict.fromkeys(collection_ids))
    found: dict[str, Collection] = {}
    for start in range(0, len(ids), 100):
        for item in table.batch_get([keys.collection(cid) for cid in ids[start:start + 100]]):
            found[item["id"]] = Collection.from_item(item)
    return found
