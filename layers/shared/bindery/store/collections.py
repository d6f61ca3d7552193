"""Collections: groups of spaces and of other collections."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery import keys
from bindery.store import table
from bindery.store.content_nodes import Node, org_count_op
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


def collection_key(collection_id: str) -> keys.Key:
    """A collection's key, for reads batched with other kinds (`batch_reads.items_by_key`)."""
    return keys.collection(collection_id)


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


# --- listings -----------------------------------------------------------------------------------
def org_collections_page(org_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """GSI1: one page of every collection of the organization, nested ones included, by id (creation
    order)."""
    return table.Query(partition=keys.org_collections_partition(org_id), index="GSI1", limit=limit,
                       start_key=start_key).run()


# --- writes -------------------------------------------------------------------------------------
def create_collection_ops(collection: Collection) -> list[table.Op]:
    """The collection, and a check that its parent is still in the organization, on the path it was read
    with (a parent deleted or moved meanwhile fails the transaction)."""
    ops = [table.put_op(collection.to_item(), "attribute_not_exists(PK)"),
           org_count_op(collection.org_id, "collection", 1)]
    if collection.parent:
        ops.append(table.condition_op(
            keys.collection(collection.parent), "orgId = :org AND ancestors = :seen",
            {":org": collection.org_id, ":seen": collection.ancestors[1:]},
        ))
    return ops


def update_collection_op(collection: Collection, changed: Collection) -> table.Op:
    """Writes the title, description and level of `changed` that differ from `collection` (as read; a
    description of None is removed) and its `updatedAt`, if the collection is unchanged since it was
    read; only those attributes are written, so the grants map and the tree attributes are never put
    back."""
    changes: dict[str, Any] = {}
    removes: list[str] = []
    for attr, name in (("title", "title"), ("description", "description"), ("default_level", "defaultLevel")):
        value = getattr(changed, attr)
        if value != getattr(collection, attr):
            if value is None and attr == "description":
                removes.append(name)
            else:
                changes[name] = value
    updated_at = changed.updated_at
    names = {f"#s{index}": name for index, name in enumerate(changes)}
    values: dict[str, Any] = {f":s{index}": value for index, value in enumerate(changes.values())}
    expression = "SET updatedAt = :now" + "".join(f", #s{index} = :s{index}" for index in range(len(changes)))
    if removes:
        names.update({f"#r{index}": name for index, name in enumerate(removes)})
        expression += " REMOVE " + ", ".join(f"#r{index}" for index in range(len(removes)))
    values.update({":now": updated_at, ":seen": collection.updated_at})
    return table.update_op(keys.collection(collection.id), expression, values,
                           "attribute_exists(PK) AND updatedAt = :seen", names or None)


def delete_collection_ops(collection: Collection) -> list[table.Op]:
    """The collection and its grant items, if it is unchanged since it was read (grant changes move
    `updatedAt` too, so the grant items deleted are exactly those that exist)."""
    delete = table.delete_op(keys.collection(collection.id), "updatedAt = :seen")
    delete["Delete"]["ExpressionAttributeValues"] = {":seen": collection.updated_at}
    ops = [delete, org_count_op(collection.org_id, "collection", -1)]
    for entry in collection.grants:
        principal, principal_id = entry.split(":", 1)
        ops.append(table.delete_op(keys.grant("collection", collection.id, principal, principal_id)))
    return ops
