"""What spaces and collections share: a place in the organization's tree, a default level and grants.

`ancestors` lists the collection ids from the parent up to the top, so that the access check reads every
collection that can pass a level down in one BatchGetItem. `grants` maps "user:<id>" / "team:<id>" to a
role, so that the node's own item answers "who was granted what here" without another read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.store import table
from bindery.store.table import Item

# The organization's counter of its live nodes of each kind (`ORG/spaces`' and `ORG/collections`' count).
_ORG_COUNTERS = {"space": "spaceCount", "collection": "collectionCount"}


def org_count_op(org_id: str, kind: str, delta: int) -> table.Op:
    """ADD to the organization's count of live spaces or collections, in the transaction that creates,
    deletes or restores one (the organization must exist)."""
    return org_counts_op(org_id, {kind: delta})


def org_counts_op(org_id: str, deltas: dict[str, int]) -> table.Op:
    """Several kinds at once: a transaction may touch the organization item only once (a transfer)."""
    names = {f"#n{i}": _ORG_COUNTERS[kind] for i, kind in enumerate(deltas)}
    values = {f":d{i}": delta for i, delta in enumerate(deltas.values())}
    expression = "ADD " + ", ".join(f"#n{i} :d{i}" for i in range(len(deltas)))
    return table.update_op(keys.org(org_id), expression, values, "attribute_exists(PK)", names,
                           name="org-content-count")


@dataclass
class Node:
    id: str
    org_id: str
    created_at: str
    updated_at: str
    position: str
    parent: str | None = None
    ancestors: list[str] = field(default_factory=list)
    default_level: str | None = "inherit"
    grants: dict[str, str] = field(default_factory=dict)

    kind = "node"

    def node_attributes(self, *, listed: bool = True) -> Item:
        item: Item = {
            **keys.content(self.kind, self.id), "type": self.kind, "id": self.id, "orgId": self.org_id,
            "createdAt": self.created_at, "updatedAt": self.updated_at, "position": self.position,
            "ancestors": self.ancestors, "defaultLevel": self.default_level, "grants": self.grants,
        }
        if self.parent:
            item["parent"] = self.parent
        if listed:
            item.update(keys.content_gsi(self.kind, self.org_id, self.id, self.parent, self.position))
        return item

    @staticmethod
    def node_values(item: Item) -> dict[str, Any]:
        return {
            "id": item["id"], "org_id": item["orgId"], "created_at": item["createdAt"],
            "updated_at": item["updatedAt"], "position": item["position"], "parent": item.get("parent"),
            "ancestors": list(item.get("ancestors") or []), "default_level": item.get("defaultLevel"),
            "grants": dict(item.get("grants") or {}),
        }

    def grant_for(self, principal: str, principal_id: str) -> str | None:
        return self.grants.get(f"{principal}:{principal_id}")

    @property
    def team_ids_granted(self) -> set[str]:
        return {key.split(":", 1)[1] for key in self.grants if key.startswith("team:")}
