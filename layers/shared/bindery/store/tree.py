"""The organization's tree of spaces and collections: children in sibling order (GSI2), the neighbours a
move lands between, whole subtrees, and the transaction operations that move or transfer a node.

GSI2 holds only live spaces and collections, so everything here ignores deleted spaces. GSIs are
eventually consistent: an item read here may be a moment old, which is why every write built here is
conditioned on what was read (a stale read makes the transaction fail instead of writing over news).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boto3.dynamodb.conditions import Attr, ConditionBase
from boto3.dynamodb.conditions import Key as KeyIs

from bindery import keys
from bindery.platform.aws import dynamodb_table
from bindery.store import table
from bindery.store.content_nodes import Node
from bindery.store.table import Item, QueryPage

INDEX = "GSI2"
# A transaction holds at most 100 operations; a move or transfer is one transaction or nothing.
MAX_TREE_WRITES = 100


def sort_key(node: Node | Item) -> str:
    """Where a node sits among its siblings (GSI2's sort key)."""
    if isinstance(node, Node):
        return keys.content_gsi(node.kind, node.org_id, node.id, node.parent, node.position)["GSI2SK"]
    return str(node["GSI2SK"])


# --- reads --------------------------------------------------------------------------------------
def children_page(org_id: str, parent_id: str | None, limit: int, start_key: dict[str, Any] | None,
                  kind: str | None = None) -> QueryPage:
    """One page of the live spaces and collections directly under `parent_id` (None: the top level), in
    sibling order; `kind` ("space" or "collection") narrows the page, never the key range."""
    return table.Query(partition=keys.children_partition(org_id, parent_id), index=INDEX, limit=limit,
                       start_key=start_key, filter=Attr("type").eq(kind) if kind else None).run()


def all_children(org_id: str, parent_id: str | None) -> list[Item]:
    found: list[Item] = []
    start: dict[str, Any] | None = None
    while True:
        page = children_page(org_id, parent_id, 1000, start)
        found.extend(page.items)
        if not page.last_key:
            return found
        start = page.last_key


def has_children(org_id: str, parent_id: str) -> bool:
    return bool(children_page(org_id, parent_id, 1, None).items)


def _siblings(partition: str, *, below: str | None = None, above: str | None = None,
              forward: bool = True) -> list[Item]:
    """Two siblings next to a sort key (two: one of them may be the node being moved)."""
    condition: ConditionBase = KeyIs("GSI2PK").eq(partition)
    if below is not None:
        condition = condition & KeyIs("GSI2SK").lt(below)
    if above is not None:
        condition = condition & KeyIs("GSI2SK").gt(above)
    response = dynamodb_table().query(IndexName=INDEX, KeyConditionExpression=condition,
                                      ScanIndexForward=forward, Limit=2)
    return [table.plain(item) for item in response.get("Items", []) if table.is_live(item)]


def _first_other(items: list[Item], skip_id: str) -> Item | None:
    return next((item for item in items if item["id"] != skip_id), None)


def get_node_item(kind: str, content_id: str) -> Item | None:
    """A space or collection as stored (deleted ones included), by its kind and id."""
    return table.get(keys.content(kind, content_id))


def live_node_item(kind: str, content_id: str, org_id: str) -> Item | None:
    """A live space or collection of the organization as stored; None when it is missing, deleted or
    another organization's."""
    item = get_node_item(kind, content_id)
    return item if item is not None and not item.get("deletedAt") and item.get("orgId") == org_id else None


def sibling_before(org_id: str, parent_id: str | None, key: str, skip_id: str) -> Item | None:
    """The sibling just before sort key `key`, the node `skip_id` (the one moving) aside."""
    partition = keys.children_partition(org_id, parent_id)
    return _first_other(_siblings(partition, below=key, forward=False), skip_id)


def sibling_after(org_id: str, parent_id: str | None, key: str, skip_id: str) -> Item | None:
    partition = keys.children_partition(org_id, parent_id)
    return _first_other(_siblings(partition, above=key), skip_id)


def last_child(org_id: str, parent_id: str | None, skip_id: str | None = None) -> Item | None:
    """The last space or collection directly under `parent_id` (None: the top level), `skip_id` aside."""
    partition = keys.children_partition(org_id, parent_id)
    return _first_other(_siblings(partition, forward=False), skip_id or "")


def last_child_position(org_id: str, parent_id: str | None) -> str | None:
    """The position of the last space or collection directly under `parent_id` (None: top level)."""
    last = last_child(org_id, parent_id)
    return str(last["position"]) if last else None


@dataclass
class Subtree:
    """Everything under a collection, parents before their children, with each item's path to the root
    (`path`: the item's ancestors up to and including the root, nearest first)."""

    items: list[Item] = field(default_factory=list)
    paths: dict[str, list[str]] = field(default_factory=dict)
    truncated: bool = False


def subtree(org_id: str, root_id: str, max_items: int) -> Subtree:
    """The live descendants of collection `root_id`, level by level (one children Query per collection);
    stops reading once more than `max_items` are found (`truncated`)."""
    tree = Subtree()
    level = [(root_id, [root_id])]
    while level:
        next_level: list[tuple[str, list[str]]] = []
        for parent_id, path in level:
            for child in all_children(org_id, parent_id):
                tree.items.append(child)
                tree.paths[child["id"]] = path
                if len(tree.items) > max_items:
                    tree.truncated = True
                    return tree
                if child["type"] == "collection":
                    next_level.append((child["id"], [child["id"], *path]))
        level = next_level
    return tree


# --- operations for transactions ----------------------------------------------------------------
def named_update_op(key: keys.Key, sets: dict[str, Any], condition: str, seen: dict[str, Any],
                    removes: tuple[str, ...] = ()) -> table.Op:
    """An Update setting `sets` and removing `removes`, every attribute named through a placeholder (so
    reserved words such as `position` are fine), if `condition` (with the values `seen`) holds."""
    names = {f"#s{i}": name for i, name in enumerate(sets)}
    values = {f":s{i}": value for i, value in enumerate(sets.values())}
    clauses = ["SET " + ", ".join(f"#s{i} = :s{i}" for i in range(len(sets)))] if sets else []
    if removes:
        names.update({f"#r{i}": name for i, name in enumerate(removes)})
        clauses.append("REMOVE " + ", ".join(f"#r{i}" for i in range(len(removes))))
    expression = " ".join(clauses)
    return table.update_op(key, expression, {**values, **seen}, condition, names)


@dataclass(frozen=True)
class Placement:
    """Where a node goes: its parent collection (None: top level), that parent's path to the top, and
    its position among its new siblings."""

    parent: str | None
    ancestors: list[str]
    position: str

    def gsi(self, node: Node, org_id: str) -> dict[str, str]:
        return keys.content_gsi(node.kind, org_id, node.id, self.parent, self.position)


def place_op(node: Node, placement: Placement, now: str, visibility: str | None = None) -> table.Op:
    """Move `node` within its organization (a space given `visibility` too, when not None), if it is
    unchanged since it was read (and still live)."""
    gsi = placement.gsi(node, node.org_id)
    sets: dict[str, Any] = {"position": placement.position, "ancestors": placement.ancestors,
                            "GSI2PK": gsi["GSI2PK"], "GSI2SK": gsi["GSI2SK"], "updatedAt": now}
    if visibility is not None:
        sets["visibility"] = visibility
    if placement.parent:
        sets["parent"] = placement.parent
    condition = "updatedAt = :seen AND attribute_not_exists(deletedAt)"
    return named_update_op(keys.content(node.kind, node.id), sets, condition, {":seen": node.updated_at},
                           () if placement.parent else ("parent",))


def reposition_op(item: Item, position: str) -> table.Op:
    """A sibling given another position (to make room), if it is still where it was read."""
    gsi = keys.content_gsi(item["type"], item["orgId"], item["id"], item.get("parent"), position)
    return named_update_op(keys.content(item["type"], item["id"]),
                           {"position": position, "GSI2SK": gsi["GSI2SK"]}, "GSI2SK = :seen",
                           {":seen": item["GSI2SK"]})


def rebase_op(item: Item, ancestors: list[str]) -> table.Op:
    """A descendant's new path to the top, if the path it had is still the one that was read."""
    return named_update_op(keys.content(item["type"], item["id"]), {"ancestors": ancestors},
                           "ancestors = :seen", {":seen": item.get("ancestors") or []})


def parent_unmoved_op(org_id: str, collection_id: str, ancestors: list[str]) -> table.Op:
    """The destination collection still exists, in the organization, where it was: a concurrent move of
    it under the node being moved (which would make a cycle) fails one of the two transactions."""
    return table.condition_op(keys.collection(collection_id), "orgId = :org AND ancestors = :seen",
                              {":org": org_id, ":seen": ancestors})


@dataclass(frozen=True)
class TransferredNode:
    """A node as it will be in the target organization."""

    item: Item  # as read
    org_id: str
    parent: str | None
    ancestors: list[str]
    position: str
    grants: dict[str, str]
    visibility: str | None = None  # a space's new visibility; None: it keeps its own


def transfer_op(moved: TransferredNode, now: str) -> table.Op:
    """Rewrite a node for its new organization, if nobody changed it (or its grants) since it was read."""
    item = moved.item
    gsi = keys.content_gsi(item["type"], moved.org_id, item["id"], moved.parent, moved.position)
    sets: dict[str, Any] = {"orgId": moved.org_id, "ancestors": moved.ancestors, "position": moved.position,
                            "grants": moved.grants, "updatedAt": now, **gsi}
    if moved.visibility is not None:
        sets["visibility"] = moved.visibility
    removes: tuple[str, ...] = ()
    if moved.parent:
        sets["parent"] = moved.parent
    else:
        removes = ("parent",)
    condition = ("orgId = :fromOrg AND updatedAt = :seen AND grants = :seenGrants"
                 " AND attribute_not_exists(deletedAt)")
    seen = {":fromOrg": item["orgId"], ":seen": item["updatedAt"], ":seenGrants": item.get("grants") or {}}
    return named_update_op(keys.content(item["type"], item["id"]), sets, condition, seen, removes)


def kept_grant_op(kind: str, content_id: str, user_id: str, org_id: str) -> table.Op:
    """A user grant that follows its node: it now lists under the user's grants in the new organization."""
    return named_update_op(keys.grant(kind, content_id, "user", user_id),
                           {"orgId": org_id, "GSI1PK": keys.user_grants_partition(org_id, user_id)},
                           "attribute_exists(PK)", {})


def dropped_grant_op(kind: str, content_id: str, principal: str, principal_id: str) -> table.Op:
    return table.delete_op(keys.grant(kind, content_id, principal, principal_id))
