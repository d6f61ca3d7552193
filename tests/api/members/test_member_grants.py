"""Grants do not outlive a membership or a team: removing a member (or a member leaving) takes away their
direct grants on spaces and collections, and deleting a team takes away the team's grants."""

from __future__ import annotations

from bindery import keys
from bindery.store import collections as collection_store
from bindery.store import grants as grant_store
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store import users as user_store
from bindery.store.orgs import get_org
from tests.api.members.test_members import error, join, team
from tests.api.spaces.test_grants import (
    base,
    granted,
    invite,
    member_spaces,
    new_collection,
    new_space,
    team_spaces,
)


def _reinvite(api, admin, who, role="read"):
    """Invited back by email (`join` gave every member `<name>@example.com`)."""
    email = user_store.get_user(who.user_id).email
    reply = api.post(f"/orgs/{admin.org_id}/invites", token=admin.token,
                     body={"emails": [email], "role": role})
    assert reply.status == 200, reply.body
    assert reply.json()["users"] == [who.user_id]


def _indexed(org_id, principal, principal_id):
    """Every grant GSI1 lists under the member or team (spaces and collections)."""
    page = grant_store.principal_grants_page(org_id, principal, principal_id, limit=100, start_key=None)
    return sorted((item["kind"], item["contentId"]) for item in page.items)


def _map(kind, content_id):
    read = space_store.get_space if kind == "space" else collection_store.get_collection
    node = read(content_id)
    assert node is not None
    return node.grants


def _private_content(api, ada):
    """Two private spaces and a private collection holding a space that inherits its level."""
    s1, s2 = new_space(api, ada, level=None, title="One"), new_space(api, ada, level=None, title="Two")
    c1 = new_collection(api, ada, level=None)
    inside = new_space(api, ada, parent=c1, title="Inside")
    return s1, s2, c1, inside


def _can_see(api, who, content):
    """The status of GET on each of `_private_content`'s nodes, as `who`."""
    s1, s2, c1, inside = content
    paths = (f"/spaces/{s1}", f"/spaces/{s2}", f"/collections/{c1}", f"/spaces/{inside}")
    return [api.get(path, token=who.token).status for path in paths]


def test_removing_a_member_takes_their_grants_and_inviting_them_back_gives_no_access(api):
    ada = api.org_admin()
    bob, cat = join(api, ada.org_id, "Bob"), join(api, ada.org_id, "Cat")
    content = s1, s2, c1, _ = _private_content(api, ada)
    invite(api, ada, "space", s1, "edit", users=[bob.user_id, cat.user_id])
    invite(api, ada, "space", s2, "comment", users=[bob.user_id])
    invite(api, ada, "collection", c1, "read", users=[bob.user_id])
    assert _can_see(api, bob, content) == [200, 200, 200, 200]
    assert (member_spaces(ada.org_id, bob.user_id), member_spaces(ada.org_id, cat.user_id)) == (2, 1)
    assert _indexed(ada.org_id, "user", bob.user_id) == [("collection", c1), ("space", s1), ("space", s2)]
    members_before = get_org(ada.org_id).member_count

    assert api.delete(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token).status == 204

    assert granted(api, ada, "space", s1) == {cat.user_id: "edit"}
    assert api.get(f"{base('space', s1)}/users", token=ada.token).json()["count"] == 1
    for kind, node in (("space", s2), ("collection", c1)):
        assert api.get(f"{base(kind, node)}/users", token=ada.token).json() == {"items": [], "count": 0}
    assert (_map("space", s1), _map("space", s2), _map("collection", c1)) == ({f"user:{cat.user_id}": "edit"},
                                                                             {}, {})
    assert table.get(keys.grant("space", s1, "user", bob.user_id)) is None
    assert _indexed(ada.org_id, "user", bob.user_id) == []
    assert get_org(ada.org_id).member_count == members_before - 1
    assert member_spaces(ada.org_id, cat.user_id) == 1

    # Invited back with a role that reaches none of the private content: none of the old access returns.
    _reinvite(api, ada, bob)
    assert _can_see(api, bob, content) == [404, 404, 404, 404]
    assert api.get(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token).json()["spaces"] == 0
    listed = api.get(f"/orgs/{ada.org_id}/members/{bob.user_id}/spaces", token=ada.token).json()
    assert listed["items"] == []
    assert get_org(ada.org_id).member_count == members_before
    assert _can_see(api, cat, content) == [200, 404, 404, 404]


def test_a_member_leaving_takes_their_grants_even_on_a_deleted_space(api):
    ada = api.org_admin()
    bob, cat = join(api, ada.org_id, "Bob"), join(api, ada.org_id, "Cat")
    content = s1, s2, c1, _ = _private_content(api, ada)
    for node in (s1, s2):
        invite(api, ada, "space", node, "review", users=[bob.user_id, cat.user_id])
    invite(api, ada, "collection", c1, "edit", users=[bob.user_id])
    # A deleted space keeps its grants for a restore (and counts none of them meanwhile).
    assert api.delete(f"/spaces/{s2}", token=ada.token).status == 204
    assert (member_spaces(ada.org_id, bob.user_id), member_spaces(ada.org_id, cat.user_id)) == (1, 1)

    assert api.delete(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=bob.token).status == 204

    assert _indexed(ada.org_id, "user", bob.user_id) == []
    assert (_map("space", s1), _map("space", s2)) == ({f"user:{cat.user_id}": "review"},) * 2
    assert _map("collection", c1) == {}
    assert member_spaces(ada.org_id, cat.user_id) == 1
    _reinvite(api, ada, bob, role="comment")
    # Restoring the space brings back the grants of those still here, not those of who left.
    assert api.post(f"/spaces/{s2}/restore", token=ada.token).status == 200
    assert granted(api, ada, "space", s2) == {cat.user_id: "review"}
    assert (member_spaces(ada.org_id, bob.user_id), member_spaces(ada.org_id, cat.user_id)) == (0, 2)
    assert _can_see(api, bob, content) == [404, 404, 404, 404]


def test_a_guest_who_was_given_a_space_leaves_with_their_grant(api):
    ada = api.org_admin()
    olga = api.user("Olga")
    sid = new_space(api, ada, level=None)
    invite(api, ada, "space", sid, "edit", users=[olga.user_id])
    assert member_spaces(ada.org_id, olga.user_id) == 1
    assert api.delete(f"/orgs/{ada.org_id}/members/{olga.user_id}", token=olga.token).status == 204
    assert granted(api, ada, "space", sid) == {}
    assert _indexed(ada.org_id, "user", olga.user_id) == []


def test_deleting_a_team_takes_its_grants_and_the_access_they_gave(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    writers, readers = team(api, ada, "Writers", [bob.user_id]), team(api, ada, "Readers", [bob.user_id])
    content = s1, s2, c1, _ = _private_content(api, ada)
    invite(api, ada, "space", s1, "edit", teams=[writers, readers])
    invite(api, ada, "space", s2, "edit", teams=[writers])
    invite(api, ada, "collection", c1, "review", teams=[writers])
    assert (team_spaces(ada.org_id, writers), team_spaces(ada.org_id, readers)) == (2, 1)
    assert _indexed(ada.org_id, "team", writers) == [("collection", c1), ("space", s1), ("space", s2)]
    teams_before = get_org(ada.org_id).team_count

    assert api.delete(f"/orgs/{ada.org_id}/teams/{writers}", token=ada.token).status == 204

    assert granted(api, ada, "space", s1, "teams") == {readers: "edit"}
    for kind, node in (("space", s2), ("collection", c1)):
        assert granted(api, ada, kind, node, "teams") == {}
    assert (_map("space", s1), _map("space", s2), _map("collection", c1)) == ({f"team:{readers}": "edit"},
                                                                             {}, {})
    assert table.get(keys.grant("collection", c1, "team", writers)) is None
    assert _indexed(ada.org_id, "team", writers) == []
    assert _indexed(ada.org_id, "team", readers) == [("space", s1)]
    # Nothing is left to take away, and Bob keeps only what the remaining team gives him.
    assert api.delete(f"{base('space', s2)}/teams/{writers}", token=ada.token).status == 204
    assert _can_see(api, bob, content) == [200, 404, 404, 404]
    assert team_spaces(ada.org_id, readers) == 1
    assert get_org(ada.org_id).team_count == teams_before - 1
    assert api.get(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token).json()["teams"] == 1


def test_the_last_admin_still_cannot_leave_and_keeps_their_grants(api):
    ada = api.org_admin()
    sid = new_space(api, ada, level=None)
    invite(api, ada, "space", sid, "read", users=[ada.user_id])
    assert "at least one admin" in error(api.delete(f"/orgs/{ada.org_id}/members/{ada.user_id}",
                                                    token=ada.token), 400)
    assert granted(api, ada, "space", sid) == {ada.user_id: "read"}
    assert member_spaces(ada.org_id, ada.user_id) == 1
