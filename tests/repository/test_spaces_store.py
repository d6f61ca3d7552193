"""The space repository on every engine (moto, DynamoDB Local): listing indexes, sibling queries,
conditioned writes, the TTL read check and the counters grants move."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery import keys
from bindery.platform import clock
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store import tree as tree_store
from bindery.store import users as user_store
from bindery.store.collections import Collection
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.spaces import Space
from bindery.store.users import User
from tests.repository.org_item import ensure_org

pytestmark = pytest.mark.repository

ORG = "o1"
T0 = "2026-01-01T00:00:00.000Z"
DAY = 24 * 3600


def _org() -> None:
    founder = user_store.create_user(User(id="ada", display_name="Ada", email="ada@example.com"))
    org_store.create_org(Organization(id=ORG, title="Acme", created_at=T0),
                         Member.joining(ORG, founder, "admin", T0))


def _member(uid: str) -> None:
    user = user_store.create_user(User(id=uid, display_name=uid.title(), email=f"{uid}@example.com"))
    table.transact(member_store.add_member_ops(Member.joining(ORG, user, "read", T0)))


def _space(sid: str, position: str, parent: Collection | None = None, **extra: object) -> Space:
    space = Space(id=sid, org_id=ORG, created_at=T0, updated_at=T0, position=position,
                  parent=parent.id if parent else None,
                  ancestors=[parent.id, *parent.ancestors] if parent else [], title=sid, revision=f"r-{sid}",
                  **extra)  # type: ignore[arg-type]
    ensure_org(ORG)
    table.transact(space_store.create_space_ops(space))
    return space


def _collection(cid: str, position: str) -> Collection:
    collection = Collection(id=cid, org_id=ORG, created_at=T0, updated_at=T0, position=position, title=cid)
    table.transact([table.put_op(collection.to_item())])
    return collection


def _children(parent: str | None) -> list[str]:
    page = table.Query(partition=keys.children_partition(ORG, parent), index="GSI2").run()
    return [item["id"] for item in page.items]


def _spaces_counter(uid: str) -> int:
    member = member_store.get_member(ORG, uid)
    assert member is not None
    return member.spaces


# --- listings and siblings ----------------------------------------------------------------------
def test_org_spaces_page_walks_every_live_space_by_id():
    for sid in ("s3", "s1", "s2"):
        _space(sid, "V")
    first = space_store.org_spaces_page(ORG, 2, None)
    assert [item["id"] for item in first.items] == ["s1", "s2"]
    assert first.last_key is not None
    rest = space_store.org_spaces_page(ORG, 2, first.last_key)
    assert [item["id"] for item in rest.items] == ["s3"]


def test_last_child_and_next_sibling_positions():
    assert tree_store.last_child_position(ORG, None) is None
    guides = _collection("c1", "V")
    a = _space("a", "a")
    b = _space("b", "b")
    inner = _space("in", "V", guides)
    assert tree_store.last_child_position(ORG, None) == "b"
    assert tree_store.last_child_position(ORG, "c1") == "V"
    # The Query starts right after the space's own index entry, whatever sits before it.
    assert space_store.next_sibling_position(a) == "b"
    assert space_store.next_sibling_position(b) is None
    assert space_store.next_sibling_position(inner) is None
    assert _children(None) == ["c1", "a", "b"]


def test_creating_under_a_parent_checks_it_is_still_there():
    guides = _collection("c1", "V")
    table.transact([table.delete_op(keys.collection("c1"))])
    with pytest.raises(table.TransactionConflict):
        _space("s", "V", guides)
    assert space_store.get_space("s") is None
    assert space_store.get_revision("s", "r-s") is None


# --- conditioned writes ---------------------------------------------------------------------------
def test_update_writes_only_the_changed_attributes_if_unchanged():
    read = _space("s", "V", emoji="x")
    table.transact([table.update_op(keys.space("s"), "ADD comments :one", {":one": 1})])
    table.transact([space_store.update_space_op(read, replace(read, title="New", emoji=None,
                                                              default_level="read", updated_at="T1"))])
    stored = space_store.get_space("s")
    assert stored is not None
    assert (stored.title, stored.emoji, stored.default_level, stored.comments, stored.updated_at) == (
        "New", None, "read", 1, "T1")
    with pytest.raises(table.TransactionConflict):
        table.transact([space_store.update_space_op(read, replace(read, title="Stale", updated_at="T2"))])
    assert space_store.get_space("s").title == "New"  # type: ignore[union-attr]


def test_delete_leaves_the_indexes_and_restore_puts_it_back():
    space = _space("s", "V")
    table.transact([space_store.delete_space_op(space, deleted_at="T1", expires_at=10**10, updated_at="T1")])
    assert _children(None) == []
    assert space_store.org_spaces_page(ORG, 10, None).items == []
    deleted = space_store.get_space("s")
    assert deleted is not None
    assert (deleted.deleted_at, deleted.expires_at) == ("T1", 10**10)
    # A second delete of the same space fails its condition (the request treats that as done).
    with pytest.raises(table.TransactionConflict):
        table.transact([space_store.delete_space_op(deleted, deleted_at="T2", expires_at=1, updated_at="T2")])
    table.transact([space_store.restore_space_op(deleted, restored_at="T3", now_epoch=10**9)])
    restored = space_store.get_space("s")
    assert restored is not None
    assert (restored.deleted_at, restored.expires_at, restored.updated_at) == (None, None, "T3")
    assert _children(None) == ["s"]
    assert [item["id"] for item in space_store.org_spaces_page(ORG, 10, None).items] == ["s"]


def test_restore_is_refused_once_the_window_closed():
    space = _space("s", "V")
    table.transact([space_store.delete_space_op(space, deleted_at="T1", expires_at=2 * 10**9,
                                                updated_at="T1")])
    deleted = space_store.get_space("s")
    assert deleted is not None
    with pytest.raises(table.TransactionConflict):
        table.transact([space_store.restore_space_op(deleted, restored_at="T2", now_epoch=2 * 10**9 + 1)])
    assert _children(None) == []


def test_reads_treat_an_expired_item_as_gone_using_the_moved_clock(monkeypatch):
    space = _space("s", "V")
    now = int(clock.now().timestamp())
    table.transact([space_store.delete_space_op(space, deleted_at="T1", expires_at=now + 7 * DAY,
                                                updated_at="T1")])
    assert space_store.get_space("s") is not None
    monkeypatch.setenv("BINDERY_CLOCK_OFFSET_SECONDS", str(8 * DAY))
    assert space_store.get_space("s") is None
    assert space_store.get_spaces(["s"]) == {}


# --- duplication and counters -----------------------------------------------------------------
def test_duplicate_writes_space_revision_grants_and_counters_together():
    _org()
    _member("bob")
    original = _space("s", "V", grants={"user:bob": "edit"})
    copy = Space(id="c", org_id=ORG, created_at=T0, updated_at=T0, position="W", title="s (copy)",
                 revision="r-c", grants=dict(original.grants))
    revision = space_store.copied_revision_item(space_store.get_revision("s", "r-s"), "c", "r-c", T0)
    table.transact(space_store.duplicate_space_ops(copy, revision))
    assert _spaces_counter("bob") == 1
    grant = table.get(keys.grant("space", "c", "user", "bob"))
    assert grant is not None
    assert (grant["role"], grant["GSI1PK"]) == ("edit", keys.user_grants_partition(ORG, "bob"))
    assert space_store.get_revision("c", "r-c")["spaceId"] == "c"  # type: ignore[index]
    # Writing it twice fails as a whole: the counter does not move again.
    with pytest.raises(table.TransactionConflict):
        table.transact(space_store.duplicate_space_ops(copy, revision))
    assert _spaces_counter("bob") == 1


def test_counter_ops_move_member_and_team_counters():
    _org()
    _member("bob")
    space = _space("s", "V")
    table.transact(space_store.counter_ops(space, ["user:bob"], 1))
    assert _spaces_counter("bob") == 1
    table.transact(space_store.counter_ops(space, ["user:bob"], -1))
    assert _spaces_counter("bob") == 0
    # A counter of someone who left fails the transaction instead of creating a stray item.
    with pytest.raises(table.TransactionConflict):
        table.transact(space_store.counter_ops(space, ["user:gone"], -1))
    assert table.get(keys.member(ORG, "gone")) is None
