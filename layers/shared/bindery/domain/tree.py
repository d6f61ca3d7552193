"""Moving a space or a collection among its siblings, and under another collection of its organization
(moveSpace, moveCollection).

`position.before` puts the item right before that sibling, `position.after` right after it, both put it
between two adjacent siblings, and no position puts it last. The item gets a position between its new
neighbours (fractional indexing: its siblings are never rewritten). When a collection changes parent,
every space and collection inside it gets its new path to the top (`ancestors`) in the same transaction,
so that one move is all or nothing; a transaction holds at most 100 items, so a collection holding more
cannot be moved (400).

Permissions: `admin` on the item, and `create` where it lands (the destination collection, or the
organization for the top level).

Errors: unknown destination collection or position sibling, 404; a sibling that is not in the destination,
the item itself as its own neighbour, or a collection moved into itself or its own content, 400 (the
spec's "invalid position"); a move that would leave everything as it is, 409.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import (
    NO_COLLECTION,
    NO_SPACE,
    ContentAccess,
    collection_access,
    effective_role,
    roles_in_chains,
    space_access,
)
from bindery.domain.access.roles import at_least
from bindery.domain.collections import CollectionView
from bindery.domain.integrations.content_events import space_event
from bindery.domain.spaces.records import SpaceView
from bindery.engines.content.positions import between
from bindery.platform.errors import BadRequest, Conflict, Forbidden, NotFound
from bindery.platform.ids import new_id
from bindery.requests.tree import CollectionPointer, MoveContent, SpacePointer
from bindery.store import Item, Op, Transaction
from bindery.store import tree as tree_store
from bindery.store.collections import Collection
from bindery.store.content_nodes import Node
from bindery.store.grants import next_updated_at
from bindery.store.spaces import Space
from bindery.store.tree import MAX_TREE_WRITES, Placement, sort_key

UNCHANGED = "Operation would not change anything: the {kind} is already there"


@dataclass(frozen=True)
class Destination:
    parent: Collection | None
    chain: list[Node]  # the parent and the collections above it, nearest first ([] at the top level)

    @property
    def parent_id(self) -> str | None:
        return self.parent.id if self.parent else None

    @property
    def ancestors(self) -> list[str]:
        return [node.id for node in self.chain]


def move_space(caller: Caller, space_id: str, body: MoveContent) -> SpaceView:
    access = space_access(caller, space_id)
    moved, role = _move(caller, access, body)
    assert isinstance(moved, Space)
    return SpaceView(moved, role)


def move_collection(caller: Caller, collection_id: str, body: MoveContent) -> CollectionView:
    access = collection_access(caller, collection_id)
    moved, role = _move(caller, access, body)
    assert isinstance(moved, Collection)
    return CollectionView(moved, role)


def _destination(caller: Caller, access: ContentAccess, body: MoveContent) -> Destination:
    """Where the item goes, once the caller may put it there (`create` on the destination)."""
    node, member = access.node, access.member
    parent_id = body.parent if "parent" in body.model_fields_set else node.parent
    if parent_id is None:
        destination = Destination(None, [])
        role = effective_role(member, [], set())
    elif parent_id == node.parent and access.collections and access.collections[0].id == parent_id:
        destination = Destination(access.collections[0], list(access.collections))
        role = roles_in_chains(member, {parent_id: destination.chain})[parent_id]
    else:
        try:
            parent_access = collection_access(caller, parent_id)
        except NotFound as missing:
            raise NotFound(f"{NO_COLLECTION} (parent)") from missing
        parent = parent_access.node
        assert isinstance(parent, Collection)
        if parent.org_id != node.org_id:
            raise NotFound(f"{NO_COLLECTION} (parent)")
        destination = Destination(parent, [parent, *parent_access.collections])
        role = parent_access.role
    if node.kind == "collection" and destination.parent and (
            destination.parent_id == node.id or node.id in destination.parent.ancestors):
        raise BadRequest("parent: a collection cannot be moved into itself or into a collection it contains")
    if not at_least(role, "create"):
        where = "in the destination collection" if destination.parent else "in the organization"
        raise Forbidden(f"You need the create role {where} to move a {node.kind} there")
    return destination


def _target(pointer: SpacePointer | CollectionPointer, node: Node, destination: Destination,
            side: str) -> Item:
    """A sibling named by `position`: a live space or collection of the organization, in the
    destination, other than the item itself."""
    item = tree_store.live_node_item(pointer.kind, pointer.id, node.org_id)
    if item is None:
        raise NotFound(f"{NO_SPACE if pointer.kind == 'space' else NO_COLLECTION} (position.{side})")
    if item["id"] == node.id:
        raise BadRequest(f"position.{side}: invalid position, that is the {node.kind} being moved")
    if item.get("parent") != destination.parent_id:
        raise BadRequest(f"position.{side}: invalid position, that {pointer.kind} is not in the destination")
    return item


def _neighbours(node: Node, body: MoveContent, destination: Destination) -> tuple[Item | None, Item | None]:
    """The siblings the item will sit between (None: an end), the item itself left out."""
    org_id, parent_id = node.org_id, destination.parent_id
    position = body.position
    before = _target(position.before, node, destination, "before") if position and position.before else None
    after = _target(position.after, node, destination, "after") if position and position.after else None
    if before is not None and after is not None:
        following = tree_store.sibling_after(org_id, parent_id, sort_key(after), node.id)
        if following is None or following["id"] != before["id"]:
            raise BadRequest("position: invalid position, position.after and position.before are not "
                             "next to each other")
        return after, before
    if before is not None:
        return tree_store.sibling_before(org_id, parent_id, sort_key(before), node.id), before
    if after is not None:
        return after, tree_store.sibling_after(org_id, parent_id, sort_key(after), node.id)
    return tree_store.last_child(org_id, parent_id, node.id), None


def _position(node: Node, destination: Destination, prev: Item | None,
              nxt: Item | None) -> tuple[str, list[Op]]:
    """A position strictly between the neighbours. Two siblings created or moved at the same instant can
    share a position (their ids order them); landing between those moves the second one up as well."""
    low = prev["position"] if prev else None
    high = nxt["position"] if nxt else None
    if low is None or high is None or low < high:
        return between(low, high), []
    assert nxt is not None
    beyond = tree_store.sibling_after(node.org_id, destination.parent_id, sort_key(nxt), node.id)
    limit = beyond["position"] if beyond else None
    if limit is not None and not low < limit:
        raise Conflict("Several siblings share this position; try again in a moment")
    bumped = between(low, limit)
    return between(low, bumped), [tree_store.reposition_op(nxt, bumped)]


def _move(caller: Caller, access: ContentAccess, body: MoveContent) -> tuple[Node, str | None]:
    node = access.node
    access.require("admin", f"move this {node.kind}")
    destination = _destination(caller, access, body)
    prev, nxt = _neighbours(node, body, destination)
    if destination.parent_id == node.parent:
        here = sort_key(node)
        if (prev is None or sort_key(prev) < here) and (nxt is None or here < sort_key(nxt)):
            raise Conflict(UNCHANGED.format(kind=node.kind))
    position, extra_ops = _position(node, destination, prev, nxt)
    placement = Placement(destination.parent_id, destination.ancestors, position)
    updated_at = next_updated_at(node.updated_at)
    # in-collection means nothing at the top level: it becomes private there, never wider.
    private = isinstance(node, Space) and node.visibility == "in-collection" and destination.parent is None
    ops = [tree_store.place_op(node, placement, updated_at, "private" if private else None), *extra_ops]
    if destination.parent_id != node.parent:
        if destination.parent is not None:
            ops.append(tree_store.parent_unmoved_op(node.org_id, destination.parent.id,
                                                    destination.parent.ancestors))
        if node.kind == "collection":
            ops.extend(_rebase_ops(node, destination.ancestors, MAX_TREE_WRITES - len(ops)))
    Transaction(ops).commit()
    moved = replace(node, parent=destination.parent_id, ancestors=destination.ancestors, position=position,
                    updated_at=updated_at)
    if isinstance(moved, Space) and private:
        moved.visibility = "private"
        # The only change of a space's visibility Bindery makes: its integrations hear of it (one Query
        # of the space's installations, on this rare move only).
        space_event(moved.id, "space_visibility_updated", new_id(), previousVisibility="in-collection",
                    visibility=moved.visibility)
    role = roles_in_chains(access.member, {moved.id: [moved, *destination.chain]})[moved.id]
    return moved, role


def _rebase_ops(node: Node, ancestors: list[str], room: int) -> list[Op]:
    """New paths to the top for everything inside the moved collection."""
    tree = tree_store.subtree(node.org_id, node.id, room)
    if tree.truncated:
        raise BadRequest(f"This collection holds too much to move at once: a move changes the collection, "
                         f"everything inside it and its destination in one transaction of at most "
                         f"{MAX_TREE_WRITES} items, and this one needs more. Move some of its content "
                         f"out first.")
    return [tree_store.rebase_op(item, [*tree.paths[item["id"]], *ancestors]) for item in tree.items]
