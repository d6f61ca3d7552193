"""Member, team and team-membership repositories, on every engine (moto, DynamoDB Local)."""

from __future__ import annotations

import pytest

from bindery import keys
from bindery.platform.errors import BadRequest, Conflict
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.teams import Team, TeamLink
from bindery.store.users import User

pytestmark = pytest.mark.repository

ORG = "o1"


def _org() -> None:
    founder = user_store.create_user(User(id="ada", display_name="Ada", email="ada@example.com"))
    org = Organization(id=ORG, title="Acme", created_at="2026-01-01T00:00:00.000Z")
    org_store.create_org(org, Member.joining(ORG, founder, "admin", "2026-01-01T00:00:00.000Z"))


def _member(uid: str, role: str | None = "read", joined_at: str = "2026-02-01T00:00:00.000Z",
            name: str | None = None) -> Member:
    user = user_store.create_user(User(id=uid, display_name=name or uid.title(), email=f"{uid}@example.com"))
    member = Member.joining(ORG, user, role, joined_at)
    table.transact(member_store.add_member_ops(member))
    return member


def _team(team_id: str, title: str, user_ids: tuple[str, ...] = (), role: str = "member") -> Team:
    team = Team(org_id=ORG, id=team_id, title=title, created_at="2026-03-01T00:00:00.000Z")
    team_store.create_team(team, [TeamLink(ORG, team_id, uid, role) for uid in user_ids])
    return team


def _counters() -> tuple[int, int, int]:
    org = org_store.get_org(ORG)
    assert org is not None
    return org.member_count, org.admin_count, org.team_count


def _teams_of(uid: str) -> int:
    member = member_store.get_member(ORG, uid)
    assert member is not None
    return member.teams


def _size(team_id: str) -> int:
    team = team_store.get_team(ORG, team_id)
    assert team is not None
    return team.members


def _all_pages(**query):
    ids, start = [], None
    while True:
        page = member_store.members_page(ORG, start_key=start, **query)
        ids.extend(item["userId"] for item in page.items)
        if not page.last_key:
            return ids
        start = page.last_key


# --- member listing ---------------------------------------------------------------------------
def test_members_page_orders_by_join_date_and_filters_by_role_and_search():
    _org()
    _member("bob", "edit", "2026-02-02T00:00:00.000Z", "Bob Builder")
    _member("gus", None, "2026-02-03T00:00:00.000Z")
    _member("eve", "edit", "2026-02-04T00:00:00.000Z")
    assert _all_pages(sort="joinedAt", forward=True, limit=2) == ["ada", "bob", "gus", "eve"]
    assert _all_pages(sort="joinedAt", forward=False, limit=3) == ["eve", "gus", "bob", "ada"]
    assert _all_pages(sort="joinedAt", forward=True, limit=1, role="edit") == ["bob", "eve"]
    assert _all_pages(sort="joinedAt", forward=True, limit=10, role="guest") == ["gus"]
    assert _all_pages(sort="joinedAt", forward=True, limit=10, search="BUILDER") == ["bob"]
    assert _all_pages(sort="joinedAt", forward=True, limit=10, search="eve@example") == ["eve"]


def test_activity_sort_holds_only_members_seen():
    _org()
    bob = _member("bob")
    _member("cat")
    member_store.touch_last_seen(bob, "2026-05-01T00:00:00.000Z")
    ada = member_store.get_member(ORG, "ada")
    assert ada is not None
    member_store.touch_last_seen(ada, "2026-04-01T00:00:00.000Z")
    assert _all_pages(sort="lastSeenAt", forward=False, limit=1) == ["bob", "ada"]


def test_get_members_reads_past_one_batch():
    _org()
    for i in range(105):
        _member(f"u{i:03d}")
    found = member_store.get_members(ORG, [f"u{i:03d}" for i in range(105)] + ["ghost"])
    assert len(found) == 105
    assert found["u104"].display_name == "U104"
    assert len(items_by_key([keys.member(ORG, "ada")] * 3)) == 1


# --- roles ------------------------------------------------------------------------------------
def test_role_changes_move_the_admin_counter():
    _org()
    bob = _member("bob", "read")
    member_store.change_role(bob, "admin")
    assert _counters()[:2] == (2, 2)
    member_store.change_role(bob, None)
    stored = member_store.get_member(ORG, "bob")
    assert stored is not None
    assert stored.role is None
    assert _counters()[:2] == (2, 1)
    member_store.change_role(stored, "edit")
    assert _counters()[:2] == (2, 1)


def test_the_counter_condition_keeps_the_last_admin():
    _org()
    ada = member_store.get_member(ORG, "ada")
    assert ada is not None
    with pytest.raises(BadRequest, match="at least one admin"):
        member_store.change_role(ada, "read")
    with pytest.raises(BadRequest, match="at least one admin"):
        member_store.remove_member(ada)
    assert member_store.get_member(ORG, "ada") is not None
    assert _counters()[:2] == (1, 1)


def test_a_stale_role_is_a_conflict_and_changes_nothing():
    _org()
    _member("bob", "read")
    stale = member_store.get_member(ORG, "bob")
    assert stale is not None
    fresh = member_store.get_member(ORG, "bob")
    assert fresh is not None
    member_store.change_role(fresh, "admin")
    with pytest.raises(Conflict):
        member_store.change_role(stale, "edit")
    with pytest.raises(Conflict):
        member_store.remove_member(stale)
    assert _counters()[:2] == (2, 2)


def test_sso_flag():
    _org()
    bob = _member("bob")
    member_store.set_sso(bob)
    stored = member_store.get_member(ORG, "bob")
    assert stored is not None
    assert stored.sso is True


# --- teams ------------------------------------------------------------------------------------
def test_team_creation_counts_and_refuses_a_duplicate_whole():
    _org()
    _member("bob")
    _team("t1", "Red", ("bob", "ada"))
    assert (_counters()[2], _teams_of("bob"), _teams_of("ada")) == (1, 1, 1)
    assert _size("t1") == 2
    with pytest.raises(table.TransactionConflict):
        table.transact([*team_store.add_link_ops(TeamLink(ORG, "t1", "bob", "owner")),
                        team_store.team_members_op(ORG, "t1", 1)])
    assert (_size("t1"), _teams_of("bob")) == (2, 1)
    with pytest.raises(table.TransactionConflict):
        table.transact([*team_store.add_link_ops(TeamLink(ORG, "t1", "ghost", "member")),
                        team_store.team_members_op(ORG, "t1", 1)])


def test_team_pages_filters_and_memberships_by_member():
    _org()
    _member("bob")
    _team("t1", "Docs", ("bob",), role="owner")
    _team("t2", "Backend", ("bob",))
    _team("t3", "docs review")
    page = team_store.teams_page(ORG, 10, None, "docs")
    assert [item["id"] for item in page.items] == ["t1", "t3"]
    first = team_store.teams_page(ORG, 2, None)
    rest = team_store.teams_page(ORG, 2, first.last_key)
    assert [item["id"] for item in first.items + rest.items] == ["t1", "t2", "t3"]
    links = team_store.links_of_member_page(ORG, "bob", 10, None)
    assert [(item["teamId"], item["role"]) for item in links.items] == [("t1", "owner"), ("t2", "member")]
    owned = team_store.links_of_member_page(ORG, "bob", 10, None, owned_only=True)
    assert [item["teamId"] for item in owned.items] == ["t1"]
    roster = team_store.links_of_team_page(ORG, "t1", 10, None)
    assert [item["userId"] for item in roster.items] == ["bob"]


def test_rename_keeps_the_title_filter_in_step():
    _org()
    team = _team("t1", "Red")
    team_store.rename_team(team, "Scarlet Squad")
    assert [item["id"] for item in team_store.teams_page(ORG, 10, None, "squad").items] == ["t1"]
    assert team_store.teams_page(ORG, 10, None, "red").items == []


def test_deleting_a_large_team_chunks_and_keeps_every_counter():
    _org()
    users = [f"u{i:03d}" for i in range(60)]
    for uid in users:
        _member(uid)
    big = Team(org_id=ORG, id="t1", title="Everyone", created_at="2026-03-01T00:00:00.000Z")
    team_store.create_team(big, [TeamLink(ORG, "t1", uid, "member") for uid in users[:40]])
    later = [TeamLink(ORG, "t1", uid, "member") for uid in users[40:]]
    table.transact([op for link in later for op in team_store.add_link_ops(link)]
                   + [team_store.team_members_op(ORG, "t1", len(later))])
    assert _size("t1") == 60
    _team("t2", "Small", ("u000",))
    team_store.delete_team(big)
    assert team_store.get_team(ORG, "t1") is None
    assert team_store.links_of_team_page(ORG, "t1", 100, None).items == []
    assert [_teams_of(uid) for uid in users] == [1] + [0] * 59
    assert _counters()[2] == 1


def test_a_team_whose_counter_disagrees_is_not_deleted():
    _org()
    team = _team("t1", "Red", ("ada",))
    table.transact([team_store.team_members_op(ORG, "t1", 1)])
    with pytest.raises(Conflict):
        team_store.delete_team(team)
    assert team_store.get_team(ORG, "t1") is not None
    assert (_teams_of("ada"), _counters()[2]) == (1, 1)


# --- removal ----------------------------------------------------------------------------------
def test_removing_a_member_of_many_teams_chunks_and_keeps_every_counter():
    _org()
    _member("bob", "admin")
    _member("cat")
    for i in range(55):
        _team(f"t{i:02d}", f"Team {i}", ("bob", "cat") if i < 3 else ("bob",))
    assert _teams_of("bob") == 55
    bob = member_store.get_member(ORG, "bob")
    assert bob is not None
    member_store.remove_member(bob)
    assert member_store.get_member(ORG, "bob") is None
    assert team_store.links_of_member_page(ORG, "bob", 100, None).items == []
    found = items_by_key(keys.team(ORG, f"t{i:02d}") for i in range(55))
    assert [found[ref(keys.team(ORG, f"t{i:02d}"))]["members"] for i in range(5)] == [1, 1, 1, 0, 0]
    assert all(found[ref(keys.team(ORG, f"t{i:02d}"))]["members"] == 0 for i in range(3, 55))
    assert _counters() == (2, 1, 55)
    assert _teams_of("cat") == 3


def test_a_member_whose_team_counter_disagrees_is_not_removed():
    # As if a team membership were added after the memberships were read (GSI1 may lag a write).
    _org()
    bob = _member("bob")
    table.transact([team_store.member_teams_op(ORG, "bob", 1)])
    with pytest.raises(Conflict):
        member_store.remove_member(bob)
    assert member_store.get_member(ORG, "bob") is not None
    assert _counters()[0] == 2
