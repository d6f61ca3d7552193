"""Teams (ORG/teams) and team members (ORG/teams/{teamId}/members) through API Gateway events."""

from __future__ import annotations

import pytest

from bindery.store import teams as team_store
from bindery.store.members import get_member
from tests.api.members.test_members import error, join, org_counters, pages, sizes, team

TEAM_FIELDS = {"object", "id", "title", "members", "spaces", "createdAt", "permissions"}


def teams_of(org_id, user_id):
    return get_member(org_id, user_id).teams


def team_size(org_id, team_id):
    return team_store.get_team(org_id, team_id).members


def roster(api, who, team_id):
    items = api.get(f"/orgs/{who.org_id}/teams/{team_id}/members", token=who.token).json()["items"]
    return {item["organization"]["id"]: item["team"]["role"] for item in items}


# --- teams ------------------------------------------------------------------------------------
def test_create_team_with_members_in_the_spec_shape(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    cat = join(api, ada.org_id, "Cat", "read")
    reply = api.put(f"/orgs/{ada.org_id}/teams", token=ada.token,
                    body={"title": "Writers", "members": [bob.user_id, cat.user_id, bob.user_id]})
    assert reply.status == 201, reply.body
    body = reply.json()
    assert set(body) == TEAM_FIELDS
    assert (body["object"], body["title"], body["members"], body["spaces"]) == ("team", "Writers", 2, 0)
    assert body["permissions"] == {"admin": True, "view": True}
    # Listed members join as `member`s; the creating admin is not added.
    assert roster(api, ada, body["id"]) == {bob.user_id: "member", cat.user_id: "member"}
    assert (teams_of(ada.org_id, bob.user_id), teams_of(ada.org_id, ada.user_id)) == (1, 0)
    assert org_counters(ada.org_id)[2] == 1
    assert api.get(f"/orgs/{ada.org_id}/teams/{body['id']}", token=ada.token).json() == body


def test_create_refuses_non_members_and_writes_nothing(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    outsider = api.org_admin("Olga", "Other")
    message = error(api.put(f"/orgs/{ada.org_id}/teams", token=ada.token,
                            body={"title": "T", "members": [bob.user_id, outsider.user_id]}), 400)
    assert message == f"members: {outsider.user_id} is not a member of this organization"
    assert org_counters(ada.org_id)[2] == 0
    assert teams_of(ada.org_id, bob.user_id) == 0
    assert api.get(f"/orgs/{ada.org_id}/teams", token=ada.token).json()["items"] == []


@pytest.mark.parametrize(("body", "named"), [
    ({}, "title"), ({"title": ""}, "title"), ({"title": "x" * 65}, "title"), ({"title": 5}, "title"),
    ({"title": "T", "members": "bob"}, "members"), ({"title": "T", "members": ["m"] * 50}, "members"),
])
def test_bad_team_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    assert named in error(api.put(f"/orgs/{ada.org_id}/teams", token=ada.token, body=body), 400)


def test_only_admins_create_and_delete_teams(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "create")
    reply = api.put(f"/orgs/{ada.org_id}/teams", token=bob.token, body={"title": "T"})
    assert "admin role" in error(reply, 403)
    red = team(api, ada, "Red", [bob.user_id])
    assert api.put(f"/orgs/{ada.org_id}/teams/{red}/members/{bob.user_id}", token=ada.token,
                   body={"role": "owner"}).status == 204
    # Owning a team lets Bob rename it, not delete it.
    reply = api.patch(f"/orgs/{ada.org_id}/teams/{red}", token=bob.token, body={"title": "Crimson"})
    assert reply.status == 200
    assert error(api.delete(f"/orgs/{ada.org_id}/teams/{red}", token=bob.token), 403)
    assert team_store.get_team(ada.org_id, red).title == "Crimson"


def test_list_teams_in_creation_order_with_pages_count_and_title_filter(api):
    ada = api.org_admin()
    ids = [team(api, ada, title) for title in ("Alpha", "beta", "Gamma", "Alphabet")]
    listed = pages(api, f"/orgs/{ada.org_id}/teams", ada.token, limit=3)
    assert sizes(listed) == [3, 1]
    assert all(page["count"] == 4 for page in listed)
    assert [t["id"] for page in listed for t in page["items"]] == ids
    assert all(set(t) == TEAM_FIELDS for page in listed for t in page["items"])
    body = api.get(f"/orgs/{ada.org_id}/teams", token=ada.token, query={"title": "ALPHA"}).json()
    assert [t["title"] for t in body["items"]] == ["Alpha", "Alphabet"]
    assert body["count"] == 2
    filtered = pages(api, f"/orgs/{ada.org_id}/teams", ada.token, limit=1, title="a")
    assert [t["id"] for page in filtered for t in page["items"]] == ids
    assert all(page["count"] == 4 for page in filtered)


def test_team_cursors_are_bound_to_their_listing(api):
    ada = api.org_admin()
    bob = api.org_admin("Bob", "Bobco")
    for org in (ada, bob):
        team(api, org, "One")
        team(api, org, "Two")
    cursor = api.get(f"/orgs/{ada.org_id}/teams", token=ada.token, query={"limit": 1}).json()["next"]["page"]
    assert error(api.get(f"/orgs/{ada.org_id}/teams", token=ada.token,
                         query={"page": cursor[:-3] + "xyz"}), 400)
    assert error(api.get(f"/orgs/{ada.org_id}/teams", token=ada.token,
                         query={"page": cursor, "title": "o"}), 400)
    assert error(api.get(f"/orgs/{ada.org_id}/teams", token=ada.token,
                         query={"page": cursor, "owner": ada.user_id}), 400)
    assert error(api.get(f"/orgs/{bob.org_id}/teams", token=bob.token, query={"page": cursor}), 400)


def test_owner_filter_lists_the_teams_a_member_can_manage(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    red = team(api, ada, "Red", [bob.user_id])
    blue = team(api, ada, "Blue", [bob.user_id])
    green = team(api, ada, "Green")
    api.put(f"/orgs/{ada.org_id}/teams/{blue}/members/{bob.user_id}", token=ada.token, body={"role": "owner"})
    path = f"/orgs/{ada.org_id}/teams"
    owned = api.get(path, token=ada.token, query={"owner": bob.user_id}).json()
    assert ([t["id"] for t in owned["items"]], owned["count"]) == ([blue], 1)
    by_admin = api.get(path, token=bob.token, query={"owner": ada.user_id}).json()
    assert ([t["id"] for t in by_admin["items"]], by_admin["count"]) == ([red, blue, green], 3)
    # Bob's own view: he manages only Blue, and sees every team.
    assert [(t["id"], t["permissions"]) for t in by_admin["items"]] == [
        (red, {"admin": False, "view": True}), (blue, {"admin": True, "view": True}),
        (green, {"admin": False, "view": True})]
    mine = api.get(path, token=bob.token, query={"owner": bob.user_id}).json()["items"]
    assert [t["id"] for t in mine] == [blue]
    assert api.get(path, token=ada.token, query={"owner": "ghost"}).json() == {"items": [], "count": 0}
    assert api.get(path, token=ada.token, query={"owner": bob.user_id, "title": "red"}).json() == {
        "items": [], "count": 0}
    # Bob owns Red too now: a title filter on his owned teams counts the matches over every page.
    api.put(f"/orgs/{ada.org_id}/teams/{red}/members/{bob.user_id}", token=ada.token, body={"role": "owner"})
    listed = pages(api, path, ada.token, owner=bob.user_id, title="E", limit=1)
    assert [t["id"] for page in listed for t in page["items"]] == [red, blue]
    assert {page["count"] for page in listed} == {2}


def test_team_reads_cost_one_batch_and_lists_one_query(api, request_counter):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    red = team(api, ada, "Red", [bob.user_id])
    request_counter.clear()
    assert api.get(f"/orgs/{ada.org_id}/teams/{red}", token=bob.token).status == 200
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1}
    request_counter.clear()
    assert api.get(f"/orgs/{ada.org_id}/teams", token=ada.token).status == 200
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1, "Query": 1}
    request_counter.clear()
    assert api.get(f"/orgs/{ada.org_id}/teams/{red}/members", token=ada.token).status == 200
    # access + team in one batch, the page of memberships, then their members in one batch
    assert request_counter == {"GetItem": 1, "BatchGetItem": 2, "Query": 1}


def test_unknown_and_foreign_teams_are_404(api):
    ada = api.org_admin()
    bob = api.org_admin("Bob", "Bobco")
    theirs = team(api, bob, "Theirs")
    assert error(api.get(f"/orgs/{ada.org_id}/teams/nope", token=ada.token), 404) == "No matching team"
    assert error(api.get(f"/orgs/{ada.org_id}/teams/{theirs}", token=ada.token), 404) == "No matching team"
    foreign = api.get(f"/orgs/{bob.org_id}/teams/{theirs}", token=ada.token)
    assert error(foreign, 404) == "No matching organization"
    assert error(api.get(f"/orgs/{bob.org_id}/teams", token=ada.token), 404)
    assert error(api.patch(f"/orgs/{ada.org_id}/teams/nope", token=ada.token, body={"title": "T"}), 404)
    assert error(api.put(f"/orgs/{bob.org_id}/teams", token=ada.token, body={"title": "T"}), 404)


def test_rename_needs_a_valid_title_and_a_manager(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "admin")
    cat = join(api, ada.org_id, "Cat", "edit")
    red = team(api, ada, "Red", [cat.user_id])
    path = f"/orgs/{ada.org_id}/teams/{red}"
    reply = api.patch(path, token=bob.token, body={"title": "Scarlet"})
    assert reply.status == 200, reply.body
    assert (reply.json()["title"], reply.json()["members"]) == ("Scarlet", 1)
    assert error(api.patch(path, token=cat.token, body={"title": "Mine"}), 403)
    assert "title" in error(api.patch(path, token=ada.token, body={}), 400)
    assert "title" in error(api.patch(path, token=ada.token, body={"title": "x" * 65}), 400)
    listed = api.get(f"/orgs/{ada.org_id}/teams", token=ada.token, query={"title": "scar"}).json()["items"]
    assert [t["id"] for t in listed] == [red]


def test_deleting_a_team_takes_its_memberships_and_counters_along(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    red = team(api, ada, "Red", [bob.user_id, ada.user_id])
    blue = team(api, ada, "Blue", [bob.user_id])
    assert teams_of(ada.org_id, bob.user_id) == 2
    reply = api.delete(f"/orgs/{ada.org_id}/teams/{red}", token=ada.token)
    assert (reply.status, reply.body) == (204, b"")
    assert team_store.get_team(ada.org_id, red) is None
    assert (teams_of(ada.org_id, bob.user_id), teams_of(ada.org_id, ada.user_id)) == (1, 0)
    assert org_counters(ada.org_id)[2] == 1
    left = api.get(f"/orgs/{ada.org_id}/members/{bob.user_id}/teams", token=bob.token).json()
    assert ([item["team"]["id"] for item in left["items"]], left["count"]) == ([blue], 1)
    assert error(api.get(f"/orgs/{ada.org_id}/teams/{red}/members", token=ada.token), 404)
    assert api.delete(f"/orgs/{ada.org_id}/teams/{red}", token=ada.token).status == 204
    assert org_counters(ada.org_id)[2] == 1


def test_guests_see_only_their_own_teams(api):
    ada = api.org_admin()
    gus = join(api, ada.org_id, "Gus", None)
    red = team(api, ada, "Red", [gus.user_id])
    blue = team(api, ada, "Blue")
    assert error(api.get(f"/orgs/{ada.org_id}/teams", token=gus.token), 403)
    reply = api.get(f"/orgs/{ada.org_id}/teams/{red}", token=gus.token)
    assert reply.status == 200
    assert reply.json()["permissions"] == {"admin": False, "view": True}
    assert roster(api, gus, red) == {gus.user_id: "member"}
    assert error(api.get(f"/orgs/{ada.org_id}/teams/{blue}", token=gus.token), 403)
    assert error(api.get(f"/orgs/{ada.org_id}/teams/{blue}/members", token=gus.token), 403)
