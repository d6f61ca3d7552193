"""`effective_role`, branch by branch: the rule docs/permissions.md states, without any storage."""

from __future__ import annotations

import pytest

from bindery.domain.access.content import effective_role
from bindery.store.collections import Collection
from bindery.store.members import Member
from bindery.store.spaces import Space

AT = "2026-01-01T00:00:00.000Z"


def member(role, *, disabled=False):
    return Member(org_id="o", user_id="bob", role=role, joined_at=AT, display_name="Bob", disabled=disabled)


def space(level="inherit", grants=None):
    return Space(id="s", org_id="o", created_at=AT, updated_at=AT, position="V", default_level=level,
                 grants=grants or {})


def collection(cid, level="inherit", grants=None):
    return Collection(id=cid, org_id="o", created_at=AT, updated_at=AT, position="V", default_level=level,
                      grants=grants or {})


def test_no_membership_or_a_disabled_one_has_no_role():
    assert effective_role(None, [space("admin")], set()) is None
    assert effective_role(member("admin", disabled=True), [space()], set()) is None
    assert effective_role(member("edit", disabled=True), [space(grants={"user:bob": "admin"})], set()) is None


def test_an_organization_admin_is_admin_even_where_the_content_is_private():
    assert effective_role(member("admin"), [space(None), collection("c", None)], set()) == "admin"


@pytest.mark.parametrize("role", ["create", "review", "edit", "comment", "read"])
def test_when_every_level_inherits_the_organization_role_applies(role):
    assert effective_role(member(role), [space(), collection("c1"), collection("c2")], set()) == role
    assert effective_role(member(role), [space()], set()) == role


def test_the_nearest_explicit_level_replaces_the_organization_role_limiting_or_widening_it():
    assert effective_role(member("edit"), [space("read")], set()) == "read"
    assert effective_role(member("read"), [space("edit")], set()) == "edit"
    assert effective_role(member("edit"), [space(), collection("c1", "comment"), collection("c2", "admin")],
                          set()) == "comment"
    assert effective_role(member("read"), [space("review"), collection("c1", None)], set()) == "review"


def test_a_null_level_on_the_way_up_makes_the_content_private():
    assert effective_role(member("create"), [space(None)], set()) is None
    chain = [space(), collection("c1"), collection("c2", None)]
    assert effective_role(member("create"), chain, set()) is None


def test_a_guest_inherits_nothing_whatever_the_levels_say():
    assert effective_role(member(None), [space("admin")], set()) is None
    assert effective_role(member(None), [space(), collection("c", "edit")], set()) is None


def test_direct_grants_on_the_node_or_any_collection_above_count():
    assert effective_role(member(None), [space(grants={"user:bob": "comment"})], set()) == "comment"
    chain = [space(None), collection("c1"), collection("c2", grants={"user:bob": "create"})]
    assert effective_role(member("read"), chain, set()) == "create"


def test_team_grants_count_only_for_the_callers_teams():
    chain = [space(None, {"team:t1": "edit"}), collection("c", grants={"team:t2": "admin"})]
    assert effective_role(member("read"), chain, set()) is None
    assert effective_role(member("read"), chain, {"t1"}) == "edit"
    assert effective_role(member("read"), chain, {"t1", "t2"}) == "admin"
    assert effective_role(member(None), chain, {"t2"}) == "admin"


def test_the_strongest_source_wins_and_a_grant_never_lowers_the_inherited_level():
    assert effective_role(member("edit"), [space(grants={"user:bob": "read"})], set()) == "edit"
    chain = [space("comment", {"user:bob": "read", "team:t": "review"}),
             collection("c", grants={"user:bob": "edit"})]
    assert effective_role(member("read"), chain, {"t"}) == "review"


def test_grants_to_someone_else_do_not_count():
    chain = [space(None, {"user:eve": "admin", "team:x": "admin"})]
    assert effective_role(member("read"), chain, set()) is None


def test_a_role_this_version_does_not_know_grants_nothing():
    # An item written by a newer version (or by hand) may hold a role string this code has never seen:
    # it must rank as no role at all, never as the lowest real one or above it.
    from bindery.domain.access.role_order import at_least, rank, strongest

    assert rank("owner") == rank(None) == rank("") == 0
    assert not at_least("owner", "read")
    assert strongest("owner", None) is None
    assert strongest(None, "owner") is None
    assert strongest("owner", "read") == "read"
    assert effective_role(member("owner"), [space()], set()) is None
    assert effective_role(member("read"), [space(grants={"user:bob": "owner"})], set()) == "read"
