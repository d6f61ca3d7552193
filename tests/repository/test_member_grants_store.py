"""Removing a member or deleting a team takes their grants away, in steps that are each consistent, on
every engine (moto, DynamoDB Local)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery import keys
from bindery.platform.errors import Conflict
from bindery.store import grants as grant_store
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.collections import Collection
from bindery.store.content_nodes import Node
from bindery.store.grants import Grant
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.spaces import Space
from bindery.store.teams import Team, TeamLink
from bindery.store.users import User

pytestmark = pytest.mark.repository

ORG = "o1"
AT = "2026-01-01T00:00:00.000Z"


# --- set-up -------------------------------------------------------------------------------------
def _org_with(*user_ids: str) -> None:
    ada = user_store.create_user(User(id="ada", display_name="Ada", email="ada@example.com"))
    org_store.create_org(Organization(id=ORG, title="Acme", created_at=AT),
                         Member.joining(ORG, ada, "admin", AT))
    for uid in user_ids:
        user = user_store.create_user(User(id=uid, display_name=uid.title(), email=f"{uid}@example.com"))
        table.transact(member_store.add_member_ops(Member.joining(ORG, user, "read", AT)))


def _team(team_id: str, *user_ids: str) -> Team:
    team = Team(org_id=ORG, id=team_id, title=team_id, created_at=AT)
    team_store.create_team(team, [TeamLink(ORG, team_id, uid, "member") for uid in user_ids])
    return team


def _space(sid: str) -> Space:
    space = Space(id=sid, org_id=ORG, created_at=AT, updated_at=AT, position="V", default_level=None,
                  title=sid, revision=f"r-{sid}")
    table.transact(space_store.create_space_ops(space))
    return space


def _collection(cid: str) -> Collection:
    collection = Collection(id=cid, org_id=ORG, created_at=AT, updated_at=AT, position="V", title=cid)
    table.transact([table.put_op(collection.to_item(), "attribute_not_exists(PK)")])
    return collection


def _grant(node: Node, *principals: tuple[str, str]) -> None:
    """What the permission endpoints write for new grants on one node: items, map entries and counters,
    in one transaction."""
    ops, changes = [], {}
    for principal, pid in principals:
        ops += [grant_store.put_grant_op(Grant(node.kind, node.id, ORG, principal, pid, "edit"), new=True),
                *grant_store.principal_ops(node, principal, pid, 1)]
        changes[grant_store.map_key(principal, pid)] = "edit"
    updated = grant_store.next_updated_at(node.updated_at)
    table.transact([*ops, grant_store.node_grants_op(node, changes, updated)])
    node.grants.update(changes)
    node.updated_at = updated


def _delete_space(space: Space) -> None:
    """As DELETE /spaces/{id} does it: the space leaves the listings and its grants the counters."""
    updated = grant_store.next_updated_at(space.updated_at)
    table.transact([
        space_store.delete_space_op(space, deleted_at=updated, expires_at=10**10, updated_at=updated),
        *space_store.counter_ops(space, list(space.grants), -1),
    ])
    space.deleted_at, space.updated_at = updated, updated


# --- reads --------------------------------------------------------------------------------------
def _member(uid: str) -> Member:
    member = member_store.get_member(ORG, uid)
    assert member is not None
    return member


def _org() -> Organization:
    org = org_store.get_org(ORG)
    assert org is not None
    return org


def _spaces_of(principal: str, pid: str) -> int:
    holder = member_store.get_member(ORG, pid) if principal == "user" else team_store.get_team(ORG, pid)
    assert holder is not None
    return holder.spaces


def _indexed(principal: str, pid: str) -> list[str]:
    """The content ids GSI1 lists under the member or team, every page."""
    ids, start = [], None
    while True:
        page = grant_store.principal_grants_page(ORG, principal, pid, limit=100, start_key=start)
        ids += [item["contentId"] for item in page.items]
        if not page.last_key:
            return ids
        start = page.last_key


def _holding(nodes: list[Node], principal: str, pid: str) -> tuple[list[str], list[str]]:
    """The nodes whose map names the principal, and those with the principal's grant item."""
    entry = grant_store.map_key(principal, pid)
    items = items_by_key(keys.content(node.kind, node.id) for node in nodes)
    grants = items_by_key(keys.grant(node.kind, node.id, principal, pid) for node in nodes)
    mapped = [node.id for node in nodes if entry in items[ref(keys.content(node.kind, node.id))]["grants"]]
    granted = [node.id for node in nodes if ref(keys.grant(node.kind, node.id, principal, pid)) in grants]
    return mapped, granted


# --- removing a member --------------------------------------------------------------------------
def test_a_member_with_more_grants_than_a_transaction_holds_is_removed_in_consistent_steps(request_counter):
    _org_with("bob", "cat")
    spaces = [_space(f"s{i:02d}") for i in range(60)]
    collections = [_collection(f"c{i:02d}") for i in range(45)]
    nodes: list[Node] = [*spaces, *collections]
    for index, node in enumerate(nodes):
        _grant(node, ("user", "bob"), *([("user", "cat")] if index % 20 == 0 else []))
    for team_id in ("t0", "t1", "t2"):
        _team(team_id, "bob", *(("cat",) if team_id == "t0" else ()))
    _delete_space(spaces[59])
    assert (_spaces_of("user", "bob"), _spaces_of("user", "cat")) == (59, 3)
    members_before = _org().member_count
    bob = _member("bob")
    request_counter.clear()

    member_store.remove_member(bob)

    # 105 grants: two pages of 49, each its own step; the last 7 go with the 3 team memberships.
    assert request_counter["TransactWriteItems"] == 3
    assert member_store.get_member(ORG, "bob") is None
    assert _indexed("user", "bob") == []
    assert _holding(nodes, "user", "bob") == ([], [])
    cat_nodes = [node.id for index, node in enumerate(nodes) if index % 20 == 0]
    assert _holding(nodes, "user", "cat") == (cat_nodes, cat_nodes)
    assert _spaces_of("user", "cat") == 3
    assert [team_store.get_team(ORG, t).members for t in ("t0", "t1", "t2")] == [1, 0, 0]
    assert _org().member_count == members_before - 1


def test_a_removal_that_fails_part_way_leaves_a_consistent_member_and_a_retry_finishes(monkeypatch):
    _org_with("bob")
    spaces = [_space(f"s{i:02d}") for i in range(60)]
    for space in spaces:
        _grant(space, ("user", "bob"))
    late = _space("late")
    real_remove_grants = grant_store.remove_grants

    def a_grant_comes_meanwhile(*args, **kwargs):
        left = real_remove_grants(*args, **kwargs)
        _grant(late, ("user", "bob"))  # after the grants were read: the last step must not remove Bob
        return left

    monkeypatch.setattr(grant_store, "remove_grants", a_grant_comes_meanwhile)
    with pytest.raises(Conflict):
        member_store.remove_member(_member("bob"))
    # The first page went, whole; the rest, and the grant that came meanwhile, are intact and counted.
    mapped, granted = _holding([*spaces, late], "user", "bob")
    assert mapped == granted == [space.id for space in spaces[49:]] + ["late"]
    assert sorted(_indexed("user", "bob")) == sorted(granted)
    assert _spaces_of("user", "bob") == 12

    monkeypatch.setattr(grant_store, "remove_grants", real_remove_grants)
    member_store.remove_member(_member("bob"))
    assert member_store.get_member(ORG, "bob") is None
    assert _holding([*spaces, late], "user", "bob") == ([], [])


def test_a_step_that_races_a_change_of_its_node_reads_it_again(monkeypatch):
    _org_with("bob")
    space = _space("s1")
    _grant(space, ("user", "bob"))
    real_grant_removal = grant_store.grant_removal
    renamed = []

    def renamed_meanwhile(*args):
        removal = real_grant_removal(*args)
        if not renamed:
            seen = space_store.get_space("s1")
            table.transact([space_store.update_space_op(seen, replace(
                seen, title="Renamed", updated_at=grant_store.next_updated_at(seen.updated_at)))])
            renamed.append(True)
        return removal

    monkeypatch.setattr(grant_store, "grant_removal", renamed_meanwhile)
    member_store.remove_member(_member("bob"))
    stored = space_store.get_space("s1")
    assert stored is not None
    assert (stored.title, stored.grants) == ("Renamed", {})
    assert member_store.get_member(ORG, "bob") is None


def test_a_member_whose_spaces_counter_disagrees_is_not_removed():
    # As if a space grant were added after the grants were read (GSI1 may lag a write).
    _org_with("bob")
    space = _space("s1")
    _grant(space, ("user", "bob"))
    table.transact([grant_store.member_spaces_op(ORG, "bob", 1)])
    with pytest.raises(Conflict):
        member_store.remove_member(_member("bob"))
    assert member_store.get_member(ORG, "bob") is not None
    assert _holding([space], "user", "bob") == (["s1"], ["s1"])


def test_left_over_grant_items_go_and_nodes_of_another_organization_stay():
    _org_with("bob")
    kept, orphaned, gone, moved = _space("kept"), _space("orphan"), _space("gone"), _space("moved")
    for space in (kept, gone, moved):
        _grant(space, ("user", "bob"))
    # A grant item without its map entry (as GSI1 shows a removal it has not caught up with) ...
    table.transact([grant_store.put_grant_op(Grant("space", "orphan", ORG, "user", "bob", "read"), new=True)])
    # ... one whose space is gone, and one whose space now belongs to another organization (transferred
    # with Bob's grant; the index has not caught up).
    table.transact([table.delete_op(keys.space("gone")), grant_store.member_spaces_op(ORG, "bob", -1)])
    table.transact([table.update_op(keys.space("moved"), "SET orgId = :o", {":o": "o2"}),
                    grant_store.member_spaces_op(ORG, "bob", -1)])
    member_store.remove_member(_member("bob"))
    assert member_store.get_member(ORG, "bob") is None
    assert _holding([kept, orphaned, moved], "user", "bob") == (["moved"], ["moved"])
    assert table.get(keys.grant("space", "gone", "user", "bob")) is None


def test_a_restore_read_before_a_grant_went_fails_and_must_read_again():
    _org_with("bob")
    space = _space("s1")
    _grant(space, ("user", "bob"))
    _delete_space(space)
    stale = space_store.get_space("s1")
    assert stale is not None
    member_store.remove_member(_member("bob"))
    # The restore computed its counters from a map that still named Bob: it must not land.
    with pytest.raises(table.TransactionConflict):
        table.transact([space_store.restore_space_op(stale, restored_at="2027-01-01T00:00:00.000Z",
                                                     now_epoch=10**9)])
    fresh = space_store.get_space("s1")
    assert fresh is not None
    assert fresh.grants == {}
    table.transact([space_store.restore_space_op(fresh, restored_at="2027-01-01T00:00:00.000Z",
                                                 now_epoch=10**9)])
    assert space_store.get_space("s1").deleted_at is None


# --- deleting a team ----------------------------------------------------------------------------
def test_a_team_with_many_grants_is_deleted_in_consistent_steps():
    _org_with("bob")
    crew, other = _team("crew", "bob"), _team("other", "bob")
    spaces = [_space(f"s{i:02d}") for i in range(50)]
    collections = [_collection(f"c{i}") for i in range(5)]
    nodes: list[Node] = [*spaces, *collections]
    for node in nodes:
        _grant(node, ("team", crew.id), *([("team", other.id)] if node.id in {"s00", "c0"} else []))
    assert (_spaces_of("team", "crew"), _spaces_of("team", "other")) == (50, 1)
    assert sorted(_indexed("team", "crew")) == sorted(node.id for node in nodes)

    team_store.delete_team(crew)

    assert team_store.get_team(ORG, "crew") is None
    assert _indexed("team", "crew") == []
    assert _holding(nodes, "team", "crew") == ([], [])
    assert _holding(nodes, "team", "other") == (["s00", "c0"], ["s00", "c0"])
    assert _spaces_of("team", "other") == 1
    assert _member("bob").teams == 1
    assert _org().team_count == 1


def test_a_team_whose_spaces_counter_disagrees_is_not_deleted():
    _org_with()
    crew = _team("crew")
    space = _space("s1")
    _grant(space, ("team", "crew"))
    table.transact([grant_store.team_spaces_op(ORG, "crew", 1)])
    with pytest.raises(Conflict):
        team_store.delete_team(crew)
    assert team_store.get_team(ORG, "crew") is not None
    assert _holding([space], "team", "crew") == (["s1"], ["s1"])
