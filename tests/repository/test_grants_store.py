"""The grant repository and the access check that reads grants, on every engine (moto, DynamoDB Local)."""

from __future__ import annotations

import pytest

from bindery import keys
from bindery.domain.access.auth import Caller
from bindery.domain.access.content import roles_on, space_access
from bindery.platform.errors import NotFound
from bindery.store import grants as grant_store
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.collections import Collection
from bindery.store.grants import Grant
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.spaces import Space
from bindery.store.teams import Team, TeamLink
from bindery.store.users import User

pytestmark = pytest.mark.repository

ORG = "o1"
AT = "2026-01-01T00:00:00.000Z"


def _org_with(*members: tuple[str, str | None]) -> None:
    ada = user_store.create_user(User(id="ada", display_name="Ada", email="ada@example.com"))
    org_store.create_org(Organization(id=ORG, title="Acme", created_at=AT),
                         Member.joining(ORG, ada, "admin", AT))
    for uid, role in members:
        user = user_store.create_user(User(id=uid, display_name=uid.title(), email=f"{uid}@example.com"))
        table.transact(member_store.add_member_ops(Member.joining(ORG, user, role, AT)))


def _space(sid: str, level: str | None = "inherit", parent: Collection | None = None) -> Space:
    space = Space(id=sid, org_id=ORG, created_at=AT, updated_at=AT, position="V", default_level=level,
                  parent=parent.id if parent else None, ancestors=[parent.id] if parent else [],
                  title=sid, revision=f"r-{sid}")
    table.transact(space_store.create_space_ops(space))
    return space


def _grant(node: Space | Collection, principal: str, pid: str, role: str) -> None:
    """What the permission endpoints write for a new grant: item, map entry, counter, in one transaction."""
    grant = Grant(node.kind, node.id, ORG, principal, pid, role)
    updated = grant_store.next_updated_at(node.updated_at)
    table.transact([grant_store.put_grant_op(grant, new=True),
                    *grant_store.principal_ops(node, principal, pid, 1),
                    grant_store.node_grants_op(node, {grant_store.map_key(principal, pid): role}, updated)])
    node.grants[grant_store.map_key(principal, pid)] = role
    node.updated_at = updated


def test_a_grant_is_written_as_map_entry_item_and_counter_together():
    _org_with(("bob", None))
    space = _space("s1", level=None)
    _grant(space, "user", "bob", "edit")
    stored = space_store.get_space("s1")
    assert stored is not None
    assert stored.grants == {"user:bob": "edit"}
    assert stored.updated_at > AT
    page = grant_store.grants_page("space", "s1", "user", 10, None)
    assert [Grant.from_item(item) for item in page.items] == [
        Grant("space", "s1", ORG, "user", "bob", "edit")]
    assert grant_store.grants_page("space", "s1", "team", 10, None).items == []
    assert member_store.get_member(ORG, "bob").spaces == 1
    assert space_access(Caller("bob"), "s1").role == "edit"


def test_a_second_new_grant_or_a_stale_node_fails_whole():
    _org_with(("bob", "read"))
    space = _space("s1")
    seen = space.updated_at
    _grant(space, "user", "bob", "edit")
    with pytest.raises(table.TransactionConflict):
        table.transact([grant_store.put_grant_op(Grant("space", "s1", ORG, "user", "bob", "read"), new=True),
                        grant_store.member_spaces_op(ORG, "bob", 1)])
    stale = Space(**{**space.__dict__, "updated_at": seen, "grants": {}})
    with pytest.raises(table.TransactionConflict):
        table.transact([grant_store.node_grants_op(stale, {"user:bob": None}, "2027-01-01T00:00:00.000Z"),
                        grant_store.delete_grant_op(keys.grant("space", "s1", "user", "bob"))])
    assert space_store.get_space("s1").grants == {"user:bob": "edit"}
    assert member_store.get_member(ORG, "bob").spaces == 1


def test_a_whole_item_write_from_before_a_grant_change_cannot_put_back_the_old_map():
    _org_with(("bob", "read"))
    space = _space("s1")
    before = Space(**{**space.__dict__, "grants": {}})
    _grant(space, "user", "bob", "admin")
    with pytest.raises(table.TransactionConflict):
        table.transact([space_store.put_space_op(before, before.updated_at)])
    assert space_store.get_space("s1").grants == {"user:bob": "admin"}


def test_next_updated_at_moves_past_what_was_seen_even_when_the_clock_lags(monkeypatch):
    monkeypatch.setenv("BINDERY_CLOCK_OFFSET_SECONDS", str(-3600))
    assert grant_store.next_updated_at("2999-01-01T00:00:00.999Z") == "2999-01-01T00:00:01.000Z"


def test_counters_never_land_on_missing_members_and_deleted_spaces_take_no_grant():
    _org_with()
    space = _space("s1")
    with pytest.raises(table.TransactionConflict):
        table.transact([grant_store.member_spaces_op(ORG, "ghost", 1)])
    assert table.get(keys.member(ORG, "ghost")) is None
    # Deleted (as DELETE /spaces/{id} leaves it): the item stays, with `deletedAt`.
    table.transact([table.update_op(keys.space("s1"), "SET deletedAt = :d", {":d": AT})])
    deleted = Space(**{**space.__dict__, "deleted_at": AT})
    with pytest.raises(table.TransactionConflict):
        table.transact([grant_store.node_grants_op(deleted, {"user:ada": "read"},
                                                   "2027-01-01T00:00:00.000Z")])


def test_user_grants_are_indexed_under_the_member_by_kind_in_id_order():
    _org_with(("bob", "read"))
    spaces = [_space(sid) for sid in ("s1", "s2", "s3")]
    collection = Collection(id="c1", org_id=ORG, created_at=AT, updated_at=AT, position="V", title="C")
    table.transact([table.put_op(collection.to_item())])
    for space in spaces:
        _grant(space, "user", "bob", "read")
    _grant(collection, "user", "bob", "edit")
    ids, start = [], None
    while True:
        page = grant_store.user_grants_page(ORG, "bob", "space", forward=False, limit=2, start_key=start)
        ids.extend(item["contentId"] for item in page.items)
        if not page.last_key:
            break
        start = page.last_key
    assert ids == ["s3", "s2", "s1"]
    collections = grant_store.user_grants_page(ORG, "bob", "collection", forward=True, limit=10,
                                               start_key=None)
    assert [item["contentId"] for item in collections.items] == ["c1"]
    assert member_store.get_member(ORG, "bob").spaces == 3


def test_team_grants_reach_members_of_the_team_through_collections():
    _org_with(("bob", "read"), ("cat", "read"))
    team_store.create_team(Team(org_id=ORG, id="t1", title="Crew", created_at=AT),
                           [TeamLink(ORG, "t1", "bob", "member")])
    collection = Collection(id="c1", org_id=ORG, created_at=AT, updated_at=AT, position="V", title="C")
    table.transact([table.put_op(collection.to_item())])
    inside = _space("s1", level=None, parent=collection)
    _grant(collection, "team", "t1", "review")
    assert team_store.get_team(ORG, "t1").spaces == 0  # a grant on a collection counts no space
    assert space_access(Caller("bob"), "s1").role == "review"
    with pytest.raises(NotFound):
        space_access(Caller("cat"), "s1")
    bob = member_store.get_member(ORG, "bob")
    assert roles_on(bob, [inside]) == {"s1": "review"}
