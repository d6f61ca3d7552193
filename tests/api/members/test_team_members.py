"""Team membership seen from both sides: ORG/teams/{teamId}/members and ORG/members/{userId}/teams."""

from __future__ import annotations

import pytest

from tests.api.members.test_members import error, join, pages, sizes, team
from tests.api.members.test_teams import roster, team_size, teams_of


# --- team members -------------------------------------------------------------------------------
def test_team_members_list_in_the_spec_shape_and_in_pages(api):
    ada = api.org_admin()
    users = [join(api, ada.org_id, f"User {i}", "edit").user_id for i in range(5)]
    red = team(api, ada, "Red", users)
    listed = pages(api, f"/orgs/{ada.org_id}/teams/{red}/members", ada.token, limit=2)
    assert sizes(listed) == [2, 2, 1]
    assert all(page["count"] == 5 for page in listed)
    items = [item for page in listed for item in page["items"]]
    assert sorted(item["organization"]["id"] for item in items) == sorted(users)
    assert len({item["organization"]["id"] for item in items}) == 5
    first = items[0]
    assert set(first) == {"organization", "team", "permissions"}
    assert first["organization"]["object"] == "member"
    assert first["organization"]["teams"] == 1
    assert (first["team"], first["permissions"]) == ({"role": "member"}, {"view": True})
    other = team(api, ada, "Other", users[:2])
    cursor = listed[0]["next"]["page"]
    assert error(api.get(f"/orgs/{ada.org_id}/teams/{other}/members", token=ada.token,
                         query={"page": cursor}), 400)


def test_adding_one_member_is_idempotent_and_sets_roles(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    red = team(api, ada, "Red")
    path = f"/orgs/{ada.org_id}/teams/{red}/members/{bob.user_id}"
    reply = api.put(path, token=ada.token)
    assert (reply.status, reply.body) == (204, b"")
    assert api.put(path, token=ada.token, body={}).status == 204
    assert (team_size(ada.org_id, red), teams_of(ada.org_id, bob.user_id)) == (1, 1)
    assert roster(api, ada, red) == {bob.user_id: "member"}
    assert api.put(path, token=ada.token, body={"role": "owner"}).status == 204
    assert roster(api, ada, red) == {bob.user_id: "owner"}
    assert (team_size(ada.org_id, red), teams_of(ada.org_id, bob.user_id)) == (1, 1)
    assert "role" in error(api.put(path, token=ada.token, body={"role": "admin"}), 400)


def test_team_owners_manage_membership_plain_members_do_not(api):
    ada = api.org_admin()
    owner = join(api, ada.org_id, "Olive", "read")
    plain = join(api, ada.org_id, "Pete", "admin")
    cat = join(api, ada.org_id, "Cat", "read")
    red = team(api, ada, "Red", [owner.user_id, cat.user_id])
    base = f"/orgs/{ada.org_id}/teams/{red}/members"
    api.put(f"{base}/{owner.user_id}", token=ada.token, body={"role": "owner"})
    bob = join(api, ada.org_id, "Bob", "read")
    assert error(api.put(f"{base}/{bob.user_id}", token=cat.token), 403)
    assert error(api.delete(f"{base}/{owner.user_id}", token=cat.token), 403)
    assert error(api.put(base, token=cat.token, body={"add": [bob.user_id]}), 403)
    assert api.put(f"{base}/{bob.user_id}", token=owner.token).status == 204
    # Pete is an org admin without being in the team: admins manage every team.
    assert api.delete(f"{base}/{bob.user_id}", token=plain.token).status == 204
    assert roster(api, ada, red) == {owner.user_id: "owner", cat.user_id: "member"}


def test_removing_one_member_and_leaving(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    red = team(api, ada, "Red", [bob.user_id, ada.user_id])
    base = f"/orgs/{ada.org_id}/teams/{red}/members"
    assert api.delete(f"{base}/{bob.user_id}", token=bob.token).status == 204
    assert (team_size(ada.org_id, red), teams_of(ada.org_id, bob.user_id)) == (1, 0)
    assert api.delete(f"{base}/{bob.user_id}", token=ada.token).status == 204
    assert api.delete(f"/orgs/{ada.org_id}/teams/nope/members/{bob.user_id}", token=ada.token).status == 204
    assert api.delete(f"{base}/{ada.user_id}", token=ada.token).status == 204
    assert team_size(ada.org_id, red) == 0


def test_adding_needs_an_existing_team_and_an_organization_member(api):
    ada = api.org_admin()
    outsider = api.org_admin("Olga", "Other")
    red = team(api, ada, "Red")
    assert error(api.put(f"/orgs/{ada.org_id}/teams/{red}/members/{outsider.user_id}", token=ada.token),
                 404) == "No matching member"
    assert error(api.put(f"/orgs/{ada.org_id}/teams/nope/members/{ada.user_id}", token=ada.token),
                 404) == "No matching team"
    assert team_size(ada.org_id, red) == 0


def test_bulk_update_adds_by_id_or_email_sets_roles_and_removes(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    cat = join(api, ada.org_id, "Cat", "edit", email="Cat@Example.com")
    dan = join(api, ada.org_id, "Dan", "edit")
    red = team(api, ada, "Red", [dan.user_id])
    base = f"/orgs/{ada.org_id}/teams/{red}/members"
    reply = api.put(base, token=ada.token, body={
        "add": [bob.user_id, "cat@example.com"], "memberships": {dan.user_id: {"role": "owner"}}})
    assert (reply.status, reply.body) == (204, b"")
    assert roster(api, ada, red) == {bob.user_id: "member", cat.user_id: "member", dan.user_id: "owner"}
    assert team_size(ada.org_id, red) == 3
    # Cat named twice (id and email) is removed once; Ada, not in the team, is already removed.
    removal = {"remove": [bob.user_id, cat.user_id, "cat@example.com", ada.user_id], "add": [dan.user_id]}
    assert api.put(base, token=ada.token, body=removal).status == 204
    assert roster(api, ada, red) == {dan.user_id: "owner"}
    assert team_size(ada.org_id, red) == 1
    assert [teams_of(ada.org_id, who.user_id) for who in (bob, cat, dan)] == [0, 0, 1]


@pytest.mark.parametrize(("body", "named"), [
    ({"add": ["ghost@example.com"]}, "add: no user has the email ghost@example.com"),
    ({"add": ["ghost"]}, "add: ghost is not a member"),
    ({"memberships": {"ghost": {"role": "owner"}}}, "memberships: ghost is not a member"),
    ({"memberships": {"x": {"role": "boss"}}}, "memberships"),
    ({"add": ["x"], "remove": ["x"]}, "remove: x is also being added"),
    ({"add": [f"u{i}" for i in range(30)], "remove": [f"v{i}" for i in range(30)]}, "at most 49"),
    ({"add": "bob"}, "add"),
])
def test_bad_bulk_updates_are_400_and_change_nothing(api, body, named):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    red = team(api, ada, "Red")
    if "add" in body and isinstance(body["add"], list):
        body = {**body, "add": [bob.user_id, *body["add"]]}
    assert named in error(api.put(f"/orgs/{ada.org_id}/teams/{red}/members", token=ada.token, body=body), 400)
    assert (team_size(ada.org_id, red), teams_of(ada.org_id, bob.user_id)) == (0, 0)


# --- a member's teams ---------------------------------------------------------------------------
def test_member_teams_lists_memberships_with_roles_in_pages(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    ids = [team(api, ada, title, [bob.user_id]) for title in ("Alpha", "Beta", "Gamma")]
    team(api, ada, "Without Bob")
    owned = f"/orgs/{ada.org_id}/teams/{ids[1]}/members/{bob.user_id}"
    assert api.put(owned, token=ada.token, body={"role": "owner"}).status == 204
    path = f"/orgs/{ada.org_id}/members/{bob.user_id}/teams"
    listed = pages(api, path, bob.token, limit=2)
    assert sizes(listed) == [2, 1]
    items = [item for page in listed for item in page["items"]]
    assert [item["team"]["id"] for item in items] == ids
    assert [item["member"]["role"] for item in items] == ["member", "owner", "member"]
    assert [item["team"]["permissions"]["admin"] for item in items] == [False, True, False]
    assert items[0]["team"]["object"] == "team"
    assert items[0]["team"]["members"] == 1
    # Seen by the admin, every team is theirs to manage.
    assert all(item["team"]["permissions"]["admin"]
               for item in api.get(path, token=ada.token).json()["items"])


def test_member_teams_title_filter_and_errors(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    for title in ("Docs Writers", "Backend", "docs reviewers"):
        team(api, ada, title, [bob.user_id])
    path = f"/orgs/{ada.org_id}/members/{bob.user_id}/teams"
    body = api.get(path, token=ada.token, query={"title": "DOCS"}).json()
    assert sorted(item["team"]["title"] for item in body["items"]) == ["Docs Writers", "docs reviewers"]
    assert body["count"] == 2
    # Over pages of one team each (one of them empty: Backend), every page says how many match.
    listed = pages(api, path, ada.token, title="docs", limit=1)
    assert sum(len(page["items"]) for page in listed) == 2
    assert {page["count"] for page in listed} == {2}
    cursor = api.get(path, token=ada.token, query={"limit": 1}).json()["next"]["page"]
    assert error(api.get(path, token=ada.token, query={"limit": 1, "page": cursor, "title": "x"}), 400)
    assert error(api.get(f"/orgs/{ada.org_id}/members/{ada.user_id}/teams", token=ada.token,
                         query={"page": cursor}), 400)
    assert error(api.get(f"/orgs/{ada.org_id}/members/ghost/teams", token=ada.token), 404)
