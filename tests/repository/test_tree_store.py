"""The tree store (children, neighbours, subtrees, move and transfer operations) and the collection
repository, on every engine (moto, DynamoDB Local)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery import keys
from bindery.store import collections as collection_store
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store import tree as tree_store
from bindery.store.collections import Collection
from bindery.store.grants import Grant
from bindery.store.spaces import Space
from bindery.store.tree import Placement, TransferredNode
from tests.repository.org_item import ensure_org

pytestmark = pytest.mark.repository

T0 = "2026-01-01T00:00:00.000Z"
T1 = "2026-01-02T00:00:00.000Z"


def collection(cid, position, parent=None, ancestors=(), org="o1", **extra):
    node = Collection(id=cid, org_id=org, created_at=T0, updated_at=T0, position=position, parent=parent,
                      ancestors=list(ancestors), title=cid, **extra)
    ensure_org(org)
    table.transact(collection_store.create_collection_ops(node))
    return node


def space(sid, position, parent=None, ancestors=(), org="o1", **extra):
    node = Space(id=sid, org_id=org, created_at=T0, updated_at=T0, position=position, parent=parent,
                 ancestors=list(ancestors), title=sid, revision=f"r-{sid}", **extra)
    ensure_org(org)
    table.transact(space_store.create_space_ops(node))
    return node


def mark_deleted(space_id):
    """What deleting a space does to its item: `deletedAt` set, every listing index left."""
    table.transact([table.update_op(keys.space(space_id), "SET deletedAt = :at REMOVE GSI1PK, GSI1SK, "
                                    "GSI2PK, GSI2SK", {":at": T1})])


def ids(items):
    return [item["id"] for item in items]


# --- reads --------------------------------------------------------------------------------------
def test_children_in_sibling_order_narrowed_by_kind_and_paged():
    collection("c1", "V")
    space("s1", "F")
    space("s2", "k")
    collection("c2", "Vk", parent=None)
    space("inner", "V", parent="c1", ancestors=["c1"])
    assert ids(tree_store.all_children("o1", None)) == ["s1", "c1", "c2", "s2"]
    assert ids(tree_store.children_page("o1", None, 10, None, kind="space").items) == ["s1", "s2"]
    assert ids(tree_store.children_page("o1", None, 10, None, kind="collection").items) == ["c1", "c2"]
    assert ids(tree_store.all_children("o1", "c1")) == ["inner"]
    assert tree_store.all_children("o2", None) == []
    first = tree_store.children_page("o1", None, 2, None)
    rest = tree_store.children_page("o1", None, 10, first.last_key)
    assert ids(first.items) + ids(rest.items) == ["s1", "c1", "c2", "s2"]
    assert tree_store.has_children("o1", "c1")
    assert not tree_store.has_children("o1", "c2")


def test_neighbours_leave_the_moving_node_out():
    a, b, c = space("a", "F"), space("b", "V"), space("c", "k")
    assert tree_store.sibling_before("o1", None, tree_store.sort_key(c), "x")["id"] == "b"
    assert tree_store.sibling_before("o1", None, tree_store.sort_key(c), "b")["id"] == "a"
    assert tree_store.sibling_before("o1", None, tree_store.sort_key(a), "x") is None
    assert tree_store.sibling_after("o1", None, tree_store.sort_key(a), "b")["id"] == "c"
    assert tree_store.sibling_after("o1", None, tree_store.sort_key(b), "c") is None
    assert tree_store.last_child("o1", None)["id"] == "c"
    assert tree_store.last_child("o1", None, "c")["id"] == "b"
    assert tree_store.last_child("o1", "nothing") is None


def test_deleted_spaces_are_not_children():
    gone = space("gone", "F")
    space("kept", "V")
    mark_deleted(gone.id)
    assert ids(tree_store.all_children("o1", None)) == ["kept"]


def test_subtree_level_by_level_with_paths_and_a_cap():
    collection("root", "V")
    collection("a", "F", "root", ["root"])
    space("s", "V", "root", ["root"])
    collection("b", "V", "a", ["a", "root"])
    space("deep", "V", "b", ["b", "a", "root"])
    tree = tree_store.subtree("o1", "root", 10)
    assert ids(tree.items) == ["a", "s", "b", "deep"]
    assert tree.paths == {"a": ["root"], "s": ["root"], "b": ["a", "root"], "deep": ["b", "a", "root"]}
    assert not tree.truncated
    assert tree_store.subtree("o1", "root", 3).truncated
    assert tree_store.subtree("o1", "deep", 10).items == []


# --- moves --------------------------------------------------------------------------------------
def test_place_moves_a_node_under_a_parent_and_back_to_the_top():
    target = collection("target", "V")
    moving = space("m", "k")
    table.transact([tree_store.place_op(moving, Placement("target", ["target"], "V"), T1)])
    stored = space_store.get_space("m")
    assert (stored.parent, stored.ancestors, stored.position) == ("target", ["target"], "V")
    assert stored.updated_at == T1
    assert ids(tree_store.all_children("o1", "target")) == ["m"]
    assert ids(tree_store.all_children("o1", None)) == [target.id]
    table.transact([tree_store.place_op(stored, Placement(None, [], "z"), "2026-01-03T00:00:00.000Z")])
    assert space_store.get_space("m").parent is None
    assert ids(tree_store.all_children("o1", None)) == ["target", "m"]


def test_place_refuses_a_stale_or_deleted_node():
    moving = space("m", "k")
    table.transact([tree_store.place_op(moving, Placement(None, [], "a"), T1)])
    with pytest.raises(table.TransactionConflict):
        table.transact([tree_store.place_op(moving, Placement(None, [], "b"), T1)])  # read before the move
    fresh = space_store.get_space("m")
    mark_deleted("m")
    with pytest.raises(table.TransactionConflict):
        table.transact([tree_store.place_op(fresh, Placement(None, [], "b"), "2026-01-03T00:00:00.000Z")])
    assert space_store.get_space("m").position == "a"


def test_rebase_and_the_destination_check_refuse_stale_paths():
    collection("p", "V")
    child = collection("c", "V", "p", ["p"])
    item = table.get(keys.collection(child.id))
    table.transact([tree_store.rebase_op(item, ["p", "new"])])
    assert collection_store.get_collection("c").ancestors == ["p", "new"]
    with pytest.raises(table.TransactionConflict):
        table.transact([tree_store.rebase_op(item, ["p", "other"])])
    table.transact([tree_store.parent_unmoved_op("o1", "c", ["p", "new"])])
    for org, seen in (("o1", ["p"]), ("o2", ["p", "new"])):
        with pytest.raises(table.TransactionConflict):
            table.transact([tree_store.parent_unmoved_op(org, "c", seen)])
    with pytest.raises(table.TransactionConflict):
        table.transact([tree_store.parent_unmoved_op("o1", "missing", [])])


def test_reposition_only_from_where_it_was_read():
    item = table.get(keys.space(space("s", "V").id))
    table.transact([tree_store.reposition_op(item, "W")])
    assert space_store.get_space("s").position == "W"
    assert tree_store.sort_key(table.get(keys.space("s"))) == "W#s"
    with pytest.raises(table.TransactionConflict):
        table.transact([tree_store.reposition_op(item, "X")])


# --- transfers ----------------------------------------------------------------------------------
def test_transfer_rewrites_the_organization_and_grants():
    node = space("s", "V", grants={"user:u1": "edit", "team:t1": "read"})
    table.transact([table.put_op(Grant("space", "s", "o1", "user", "u1", "edit").to_item()),
                    table.put_op(Grant("space", "s", "o1", "team", "t1", "read").to_item())])
    item = table.get(keys.space(node.id))
    moved = TransferredNode(item=item, org_id="o2", parent=None, ancestors=[], position="k",
                            grants={"user:u1": "edit"})
    table.transact([tree_store.transfer_op(moved, T1), tree_store.kept_grant_op("space", "s", "u1", "o2"),
                    tree_store.dropped_grant_op("space", "s", "team", "t1")])
    stored = space_store.get_space("s")
    assert (stored.org_id, stored.grants, stored.position, stored.updated_at) == (
        "o2", {"user:u1": "edit"}, "k", T1)
    assert ids(tree_store.all_children("o2", None)) == ["s"]
    assert tree_store.all_children("o1", None) == []
    assert table.get(keys.space("s"))["GSI1PK"] == keys.org_spaces_partition("o2")
    grant = table.get(keys.grant("space", "s", "user", "u1"))
    assert (grant["orgId"], grant["GSI1PK"]) == ("o2", keys.user_grants_partition("o2", "u1"))
    assert table.get(keys.grant("space", "s", "team", "t1")) is None
    # Replaying the same read fails: the node changed.
    with pytest.raises(table.TransactionConflict):
        table.transact([tree_store.transfer_op(moved, "2026-01-03T00:00:00.000Z")])
    with pytest.raises(table.TransactionConflict):
        table.transact([tree_store.kept_grant_op("space", "s", "nobody", "o2")])


# --- collection repository ----------------------------------------------------------------------
def test_create_needs_the_parent_where_it_was_read():
    collection("p", "V")
    collection("c", "V", "p", ["p"])
    with pytest.raises(table.TransactionConflict):
        collection("wrong-path", "W", "c", ["c", "elsewhere"])
    with pytest.raises(table.TransactionConflict):
        collection("orphan", "V", "missing", ["missing"])
    with pytest.raises(table.TransactionConflict):
        collection("foreign", "V", "p", ["p"], org="o2")
    assert ids(collection_store.org_collections_page("o1", 10, None).items) == ["c", "p"]
    assert collection_store.get_collection("orphan") is None


def test_update_and_delete_only_what_was_read():
    made = collection("c", "V", grants={"user:u1": "read"})
    table.transact([table.put_op(Grant("collection", "c", "o1", "user", "u1", "read").to_item())])
    table.transact([collection_store.update_collection_op(made, replace(made, title="New", description="D",
                                                                        updated_at=T1))])
    stored = collection_store.get_collection("c")
    assert (stored.title, stored.description, stored.updated_at, stored.grants) == ("New", "D", T1,
                                                                                    {"user:u1": "read"})
    stale = replace(made, title="Stale", updated_at=T1)
    with pytest.raises(table.TransactionConflict):
        table.transact([collection_store.update_collection_op(made, stale)])
    later = "2026-01-03T00:00:00.000Z"
    cleared = replace(stored, description=None, updated_at=later)
    table.transact([collection_store.update_collection_op(stored, cleared)])
    assert collection_store.get_collection("c").description is None
    with pytest.raises(table.TransactionConflict):
        table.transact(collection_store.delete_collection_ops(stored))
    table.transact(collection_store.delete_collection_ops(collection_store.get_collection("c")))
    assert collection_store.get_collection("c") is None
    assert table.get(keys.grant("collection", "c", "user", "u1")) is None
    assert collection_store.org_collections_page("o1", 10, None).items == []
