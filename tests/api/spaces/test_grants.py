"""Space and collection permissions (…/permissions, …/permissions/users|teams) and ORG/members/{id}/spaces."""

from __future__ import annotations

import pytest

from bindery.store import members as member_store
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.orgs import get_org
from tests.api.members.test_members import error, join, pages, sizes, team

USER_FIELDS = {"object", "id", "displayName", "urls"}


# --- helpers (the permission table reuses them) --------------------------------------------------
def new_collection(api, who, *, parent=None, level="inherit", title="Guides"):
    body = {"title": title, **({"parent": parent} if parent else {})}
    reply = api.post(f"/orgs/{who.org_id}/collections", token=who.token, body=body)
    assert reply.status == 201, reply.body
    cid = reply.json()["id"]
    if level != "inherit":
        assert api.patch(f"/collections/{cid}", token=who.token, body={"defaultLevel": level}).status == 200
    return cid


def new_space(api, who, *, parent=None, level="inherit", edit_mode=None, title="Docs"):
    body = {"title": title, **({"parent": parent} if parent else {})}
    reply = api.post(f"/orgs/{who.org_id}/spaces", token=who.token, body=body)
    assert reply.status == 201, reply.body
    sid = reply.json()["id"]
    changes = {**({"defaultLevel": level} if level != "inherit" else {}),
               **({"editMode": edit_mode} if edit_mode else {})}
    if changes:
        assert api.patch(f"/spaces/{sid}", token=who.token, body=changes).status == 200
    return sid


def base(kind, content_id):
    return f"/{kind}s/{content_id}/permissions"


def invite(api, who, kind, content_id, role, *, users=(), teams=(), status=204):
    body = {"role": role, **({"users": list(users)} if users else {}),
            **({"teams": list(teams)} if teams else {})}
    reply = api.post(base(kind, content_id), token=who.token, body=body)
    assert reply.status == status, reply.body
    return reply


def granted(api, who, kind, content_id, principal="users"):
    """{principal id: role} over every page of the listing."""
    listed = pages(api, f"{base(kind, content_id)}/{principal}", who.token)
    field = "user" if principal == "users" else "team"
    return {item[field]["id"]: item["permission"] for page in listed for item in page["items"]}


def member_spaces(org_id, user_id):
    return member_store.get_member(org_id, user_id).spaces


def team_spaces(org_id, team_id):
    return team_store.get_team(org_id, team_id).spaces


# --- invite -------------------------------------------------------------------------------------
def test_invite_members_by_id_and_email_lists_them_and_counts_their_spaces(api):
    ada = api.org_admin()
    bob, cat = join(api, ada.org_id, "Bob", "read"), join(api, ada.org_id, "Cat", "read")
    sid = new_space(api, ada)
    # By id and by email, each in whatever case and as often as sent: one grant per user.
    invite(api, ada, "space", sid, "edit", users=[bob.user_id, "CAT@example.com", "cat@example.com",
                                                  bob.user_id])
    body = api.get(f"{base('space', sid)}/users", token=ada.token).json()
    assert body["count"] == 2
    assert "next" not in body
    assert sorted((i["user"]["id"], i["permission"]) for i in body["items"]) == sorted(
        [(bob.user_id, "edit"), (cat.user_id, "edit")])
    assert all(set(i["user"]) >= USER_FIELDS | {"email"} for i in body["items"])
    assert api.get(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token).json()["spaces"] == 1
    # Again with the same role: nothing moves. With another role: the role changes, not the counter.
    invite(api, ada, "space", sid, "edit", users=[bob.user_id])
    invite(api, ada, "space", sid, "review", users=[cat.user_id])
    assert granted(api, ada, "space", sid) == {bob.user_id: "edit", cat.user_id: "review"}
    assert (member_spaces(ada.org_id, bob.user_id), member_spaces(ada.org_id, cat.user_id)) == (1, 1)


def test_inviting_someone_outside_the_organization_makes_them_a_guest(api):
    ada = api.org_admin()
    olga = api.user("Olga")
    sid = new_space(api, ada, level=None)
    members_before = get_org(ada.org_id).member_count
    invite(api, ada, "space", sid, "comment", users=[olga.user_id, "newcomer@elsewhere.example"])
    newcomer = user_store.user_id_for_email("newcomer@elsewhere.example")
    assert newcomer is not None
    assert get_org(ada.org_id).member_count == members_before + 2
    for user_id in (olga.user_id, newcomer):
        member = api.get(f"/orgs/{ada.org_id}/members/{user_id}", token=ada.token).json()
        assert (member["role"], member["spaces"]) == (None, 1)
    assert granted(api, ada, "space", sid) == {olga.user_id: "comment", newcomer: "comment"}
    assert user_store.get_user(newcomer).org_count == 1
    assert api.get("/orgs", token=olga.token).json()["count"] == 1
    # The guest sees the space they were invited to, with the role they were given, and nothing else.
    space = api.get(f"/spaces/{sid}", token=olga.token).json()
    assert (space["permissions"]["comment"], space["permissions"]["edit"]) == (True, False)
    other = new_space(api, ada, title="Other")
    assert error(api.get(f"/spaces/{other}", token=olga.token), 404)


def test_team_grants_count_on_the_team_and_list_with_the_callers_team_permissions(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    writers, readers = team(api, ada, "Writers", [bob.user_id]), team(api, ada, "Readers")
    sid = new_space(api, ada)
    invite(api, ada, "space", sid, "edit", teams=[writers, readers])
    assert api.get(f"/orgs/{ada.org_id}/teams/{writers}", token=ada.token).json()["spaces"] == 1
    body = api.get(f"{base('space', sid)}/teams", token=bob.token).json()
    assert body["count"] == 2
    seen = {item["team"]["id"]: (item["permission"], item["team"]["permissions"]) for item in body["items"]}
    assert seen == {writers: ("edit", {"admin": False, "view": True}),
                    readers: ("edit", {"admin": False, "view": True})}
    assert {i["team"]["id"]: i["team"]["permissions"]["admin"]
            for i in api.get(f"{base('space', sid)}/teams", token=ada.token).json()["items"]} == {
        writers: True, readers: True}
    # Deleting a team takes its grants with it: nothing is left to take away.
    assert api.delete(f"/orgs/{ada.org_id}/teams/{readers}", token=ada.token).status == 204
    assert granted(api, ada, "space", sid, "teams") == {writers: "edit"}
    assert api.get(f"{base('space', sid)}/teams", token=ada.token).json()["count"] == 1
    assert api.delete(f"{base('space', sid)}/teams/{readers}", token=ada.token).status == 204


def test_collection_grants_move_no_counter_and_reach_the_spaces_inside(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    cid = new_collection(api, ada, level=None)
    sid = new_space(api, ada, parent=cid)
    assert error(api.get(f"/spaces/{sid}", token=bob.token), 404)
    invite(api, ada, "collection", cid, "edit", users=[bob.user_id])
    assert member_spaces(ada.org_id, bob.user_id) == 0
    assert granted(api, ada, "collection", cid) == {bob.user_id: "edit"}
    assert api.get(f"/spaces/{sid}", token=bob.token).json()["permissions"]["edit"] is True
    assert granted(api, ada, "space", sid) == {}  # inherited, not a grant on the space


def test_a_null_role_takes_grants_away(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    crew = team(api, ada, "Crew")
    sid = new_space(api, ada)
    invite(api, ada, "space", sid, "edit", users=[bob.user_id], teams=[crew])
    invite(api, ada, "space", sid, None, users=[bob.user_id, "nobody@nowhere.example"], teams=[crew])
    assert granted(api, ada, "space", sid) == {}
    assert granted(api, ada, "space", sid, "teams") == {}
    assert (member_spaces(ada.org_id, bob.user_id), team_spaces(ada.org_id, crew)) == (0, 0)
    assert user_store.user_id_for_email("nobody@nowhere.example") is None


@pytest.mark.parametrize(("body", "named"), [
    ({}, "role"), ({"users": ["u"]}, "role"), ({"role": "edit"}, "users or teams"),
    ({"role": "edit", "users": []}, "users or teams"), ({"role": "boss", "users": ["u"]}, "role"),
    ({"role": "edit", "users": ["bob@"]}, "users"), ({"role": "edit", "teams": "t"}, "teams"),
    ({"role": "edit", "users": [f"u{i}" for i in range(25)]}, "users"),
    ({"role": "edit", "users": ["u"] * 13, "teams": ["t"] * 12}, "at most 24"),
])
def test_bad_invites_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    sid = new_space(api, ada)
    assert named in error(api.post(base("space", sid), token=ada.token, body=body), 400)


def test_unknown_users_and_teams_are_404_and_nothing_is_written(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    elsewhere = api.org_admin("Olga", "Other")
    foreign = team(api, elsewhere, "Theirs")
    sid = new_space(api, ada)
    reply = invite(api, ada, "space", sid, "edit", users=[bob.user_id, "no-such-user"], status=404)
    message = error(reply, 404)
    assert "no-such-user" in message
    assert "teams" in error(invite(api, ada, "space", sid, "edit", users=[bob.user_id], teams=[foreign],
                                   status=404), 404)
    assert granted(api, ada, "space", sid) == {}
    assert member_spaces(ada.org_id, bob.user_id) == 0


def test_a_grant_racing_another_write_of_the_space_retries_from_a_fresh_read(api, monkeypatch):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    sid = new_space(api, ada)
    real, calls = table.transact, []

    def racing(ops):
        calls.append(len(ops))
        if len(calls) == 1:  # someone renames the space between our read and our write
            assert api.patch(f"/spaces/{sid}", token=ada.token, body={"title": "Renamed"}).status == 200
        return real(ops)

    monkeypatch.setattr(table, "transact", racing)
    invite(api, ada, "space", sid, "edit", users=[bob.user_id])
    assert len(calls) == 3  # ours, the rename, ours again
    assert api.get(f"/spaces/{sid}", token=ada.token).json()["title"] == "Renamed"
    assert granted(api, ada, "space", sid) == {bob.user_id: "edit"}
    assert member_spaces(ada.org_id, bob.user_id) == 1


def test_a_grant_that_keeps_losing_races_is_a_409_that_changed_nothing(api, monkeypatch):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    sid = new_space(api, ada)

    def always_lost(ops):
        raise table.TransactionConflict(["ConditionalCheckFailed"])

    monkeypatch.setattr(table, "transact", always_lost)
    assert "try again" in error(invite(api, ada, "space", sid, "edit", users=[bob.user_id], status=409), 409)
    monkeypatch.undo()
    assert granted(api, ada, "space", sid) == {}
    assert member_spaces(ada.org_id, bob.user_id) == 0


# --- one user or team ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["space", "collection"])
def test_patch_changes_a_grant_null_removes_it_and_an_absent_grant_is_404(api, kind):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    crew = team(api, ada, "Crew")
    node = new_space(api, ada) if kind == "space" else new_collection(api, ada)
    invite(api, ada, kind, node, "read", users=[bob.user_id], teams=[crew])
    counted = 1 if kind == "space" else 0  # only grants on spaces count
    assert (member_spaces(ada.org_id, bob.user_id), team_spaces(ada.org_id, crew)) == (counted, counted)
    for principal, pid in (("users", bob.user_id), ("teams", crew)):
        path = f"{base(kind, node)}/{principal}/{pid}"
        assert api.patch(path, token=ada.token, body={"role": "review"}).status == 204
        assert granted(api, ada, kind, node, principal) == {pid: "review"}
        assert "role" in error(api.patch(path, token=ada.token, body={"role": "boss"}), 400)
        assert "role" in error(api.patch(path, token=ada.token, body={}), 400)
        assert api.patch(path, token=ada.token, body={"role": None}).status == 204
        assert granted(api, ada, kind, node, principal) == {}
        assert api.patch(path, token=ada.token, body={"role": None}).status == 204
        assert error(api.patch(path, token=ada.token, body={"role": "edit"}), 404)
    assert (member_spaces(ada.org_id, bob.user_id), team_spaces(ada.org_id, crew)) == (0, 0)


def test_delete_answers_205_when_a_grant_went_and_204_when_there_was_none(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    crew = team(api, ada, "Crew")
    sid = new_space(api, ada)
    invite(api, ada, "space", sid, "edit", users=[bob.user_id], teams=[crew])
    assert (member_spaces(ada.org_id, bob.user_id), team_spaces(ada.org_id, crew)) == (1, 1)
    for path in (f"{base('space', sid)}/users/{bob.user_id}", f"{base('space', sid)}/teams/{crew}"):
        assert api.delete(path, token=ada.token).status == 205
        assert api.delete(path, token=ada.token).status == 204
    assert (member_spaces(ada.org_id, bob.user_id), team_spaces(ada.org_id, crew)) == (0, 0)
    assert api.delete(f"{base('space', sid)}/users/no-such-user", token=ada.token).status == 204


def test_only_admins_of_the_content_manage_grants_and_anyone_may_remove_themself(api):
    ada = api.org_admin()
    bob, cat = join(api, ada.org_id, "Bob", "edit"), join(api, ada.org_id, "Cat", "read")
    sid = new_space(api, ada)
    invite(api, ada, "space", sid, "admin", users=[cat.user_id])
    # Cat administers this space without being an organization admin.
    invite(api, cat, "space", sid, "comment", users=[bob.user_id])
    assert "admin role" in error(invite(api, bob, "space", sid, "edit", users=[bob.user_id], status=403), 403)
    assert error(api.patch(f"{base('space', sid)}/users/{cat.user_id}", token=bob.token,
                           body={"role": "read"}), 403)
    assert error(api.delete(f"{base('space', sid)}/users/{cat.user_id}", token=bob.token), 403)
    assert granted(api, bob, "space", sid) == {cat.user_id: "admin", bob.user_id: "comment"}
    assert api.delete(f"{base('space', sid)}/users/{bob.user_id}", token=bob.token).status == 205
    assert granted(api, ada, "space", sid) == {cat.user_id: "admin"}


def test_other_organizations_unknown_and_deleted_content_are_404(api):
    ada = api.org_admin()
    stranger = api.org_admin("Olga", "Other")
    sid, cid = new_space(api, ada), new_collection(api, ada)
    for kind, node in (("space", sid), ("collection", cid)):
        assert error(api.get(f"{base(kind, node)}/users", token=stranger.token), 404)
        assert error(invite(api, stranger, kind, node, "admin", users=[stranger.user_id], status=404), 404)
        assert error(api.delete(f"{base(kind, node)}/users/{ada.user_id}", token=stranger.token), 404)
        assert error(api.get(f"{base(kind, 'no-such-id')}/teams", token=ada.token), 404)
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    assert error(invite(api, ada, "space", sid, "edit", users=[ada.user_id], status=404), 404)


# --- listings -----------------------------------------------------------------------------------
def test_listings_page_once_through_every_grant_with_cursors_bound_to_the_listing(api):
    ada = api.org_admin()
    people = [join(api, ada.org_id, name).user_id for name in ("Bob", "Cat", "Dan")]
    sid, other = new_space(api, ada), new_space(api, ada, title="Other")
    invite(api, ada, "space", sid, "read", users=people)
    invite(api, ada, "space", other, "read", users=people)
    listed = pages(api, f"{base('space', sid)}/users", ada.token, limit=1)
    assert sizes(listed) == [1, 1, 1]
    assert all(page["count"] == 3 for page in listed)
    assert [i["user"]["id"] for page in listed for i in page["items"]] == sorted(people)
    cursor = listed[0]["next"]["page"]
    assert "page" in error(api.get(f"{base('space', sid)}/users", token=ada.token,
                                   query={"page": cursor[:-2] + "xx"}), 400)
    for path in (f"{base('space', sid)}/teams", f"{base('space', other)}/users"):
        assert "page" in error(api.get(path, token=ada.token, query={"page": cursor}), 400)


def test_guests_list_grants_without_emails(api):
    ada = api.org_admin()
    gus = join(api, ada.org_id, "Gus", None)
    sid = new_space(api, ada)
    invite(api, ada, "space", sid, "read", users=[gus.user_id, ada.user_id])
    items = api.get(f"{base('space', sid)}/users", token=gus.token).json()["items"]
    assert len(items) == 2
    assert all("email" not in item["user"] for item in items)


def test_permission_reads_and_writes_cost_a_fixed_number_of_requests(api, request_counter):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    sid = new_space(api, ada)
    request_counter.clear()
    invite(api, ada, "space", sid, "edit", users=[bob.user_id])
    assert request_counter == {"GetItem": 2, "BatchGetItem": 2, "TransactWriteItems": 1}
    request_counter.clear()
    assert api.get(f"{base('space', sid)}/users", token=ada.token).status == 200
    assert request_counter == {"GetItem": 2, "BatchGetItem": 2, "Query": 1}


# --- ORG/members/{userId}/spaces ------------------------------------------------------------------
def test_member_spaces_lists_direct_grants_as_the_caller_sees_each_space(api, request_counter):
    ada = api.org_admin()
    bob, cat = join(api, ada.org_id, "Bob", "read"), join(api, ada.org_id, "Cat", "read")
    first, private, gone = (new_space(api, ada, title="First"), new_space(api, ada, level=None),
                            new_space(api, ada, title="Gone"))
    invite(api, ada, "space", first, "edit", users=[bob.user_id])
    invite(api, ada, "space", private, "admin", users=[bob.user_id])
    invite(api, ada, "space", gone, "read", users=[bob.user_id])
    invite(api, ada, "collection", new_collection(api, ada), "read", users=[bob.user_id])
    assert api.delete(f"/spaces/{gone}", token=ada.token).status == 204
    path = f"/orgs/{ada.org_id}/members/{bob.user_id}/spaces"
    request_counter.clear()
    items = api.get(path, token=ada.token).json()["items"]
    assert request_counter == {"GetItem": 1, "BatchGetItem": 2, "Query": 1}  # token, access, page, spaces
    assert [(i["permission"], i["space"]["id"]) for i in items] == [("admin", private), ("edit", first)]
    assert all(i["space"]["permissions"]["admin"] for i in items)  # Ada's view of each space
    own = api.get(path, token=bob.token, query={"order": "asc"}).json()["items"]
    assert [(i["space"]["id"], i["space"]["permissions"]["admin"]) for i in own] == [(first, False),
                                                                                     (private, True)]
    # Cat cannot see the private space, so it is not shown to her.
    for_cat = api.get(path, token=cat.token).json()
    assert ([i["space"]["id"] for i in for_cat["items"]], for_cat["count"]) == ([first], 1)
    listed = pages(api, path, ada.token, limit=1, order="asc")
    assert [i["space"]["id"] for page in listed for i in page["items"]] == [first, private]
    assert [page["count"] for page in listed] == [2, 2, 2]  # not the deleted one, on every page
    # A cursor carries the count its viewer was given: it is nobody else's.
    assert "page" in error(api.get(path, token=cat.token, query={"page": listed[0]["next"]["page"],
                                                                 "order": "asc"}), 400)
    cursor = listed[0]["next"]["page"]
    assert "page" in error(api.get(path, token=ada.token, query={"page": cursor, "order": "desc"}), 400)


def test_member_spaces_errors(api):
    ada = api.org_admin()
    bob, gus = join(api, ada.org_id, "Bob", "read"), join(api, ada.org_id, "Gus", None)
    stranger = api.org_admin("Olga", "Other")
    members = f"/orgs/{ada.org_id}/members"
    assert api.get(f"{members}/{gus.user_id}/spaces", token=gus.token).status == 200
    assert "Guests" in error(api.get(f"{members}/{bob.user_id}/spaces", token=gus.token), 403)
    assert error(api.get(f"{members}/no-such-user/spaces", token=ada.token), 404)
    assert error(api.get(f"{members}/{bob.user_id}/spaces", token=stranger.token), 404)
    assert "order" in error(api.get(f"{members}/{bob.user_id}/spaces", token=ada.token,
                                    query={"order": "sideways"}), 400)
