"""Organization members (ORG/members) through API Gateway events."""

from __future__ import annotations

import pytest

from bindery.store import orgs as org_store
from bindery.store import table
from bindery.store import users as user_store
from bindery.store.members import Member, add_member_ops, get_member

MEMBER_FIELDS = {"object", "id", "role", "user", "disabled", "joinedAt", "sso", "spaces", "teams"}


def join(api, org_id, name, role="read", *, joined_at="2026-01-01T00:00:00.000Z", email=None):
    """A member added straight through the store, so these tests do not depend on invites or joins."""
    who = api.user(name, email)
    user = user_store.get_user(who.user_id)
    table.transact(add_member_ops(Member.joining(org_id, user, role, joined_at)))
    who.org_id = org_id
    return who


def error(reply, status):
    assert reply.status == status, reply.body
    assert reply.json()["error"]["code"] == status
    return reply.json()["error"]["message"]


def org_counters(org_id):
    org = org_store.get_org(org_id)
    return org.member_count, org.admin_count, org.team_count


def team(api, admin, title, members=()):
    reply = api.put(f"/orgs/{admin.org_id}/teams", token=admin.token,
                    body={"title": title, "members": list(members)})
    assert reply.status == 201, reply.body
    return reply.json()["id"]


def pages(api, path, token, **query):
    """Every page of a listing, following `next.page`."""
    seen, cursor = [], None
    while True:
        reply = api.get(path, token=token, query={**query, "page": cursor})
        assert reply.status == 200, reply.body
        body = reply.json()
        seen.append(body)
        cursor = body.get("next", {}).get("page")
        if cursor is None:
            return seen


def sizes(listed):
    """Page sizes. DynamoDB may hand back a next page that turns out empty (its Limit was reached exactly
    at the end), so a trailing empty page is allowed, never an empty one in between."""
    counts = [len(page["items"]) for page in listed]
    if len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    assert 0 not in counts
    return counts


# --- listing ----------------------------------------------------------------------------------
def test_list_is_newest_first_with_an_exact_count_and_the_spec_shape(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit", joined_at="2030-01-02T00:00:00.000Z")
    reply = api.get(f"/orgs/{ada.org_id}/members", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert body["count"] == 2
    assert "next" not in body
    assert [m["id"] for m in body["items"]] == [bob.user_id, ada.user_id]
    first = body["items"][0]
    assert set(first) >= MEMBER_FIELDS
    assert first["object"] == "member"
    assert first["role"] == "edit"
    assert first["user"]["displayName"] == "Bob"
    assert first["user"]["urls"]["location"].endswith(f"/users/{bob.user_id}")
    assert (first["disabled"], first["sso"], first["teams"], first["spaces"]) == (False, False, 0, 0)


def test_pages_are_stable_disjoint_and_complete_in_both_orders(api):
    ada = api.org_admin()
    joined = [join(api, ada.org_id, f"User {i}", "read", joined_at=f"2030-01-0{i}T00:00:00.000Z").user_id
              for i in range(1, 6)]
    ascending = pages(api, f"/orgs/{ada.org_id}/members", ada.token, limit=2, order="asc")
    assert sizes(ascending) == [2, 2, 2]
    assert all(page["count"] == 6 for page in ascending)
    ids = [m["id"] for page in ascending for m in page["items"]]
    assert ids == [ada.user_id, *joined]
    descending = pages(api, f"/orgs/{ada.org_id}/members", ada.token, limit=4)
    assert [m["id"] for page in descending for m in page["items"]] == list(reversed(ids))


def test_role_filter_includes_guests_and_counts_what_it_keeps(api):
    ada = api.org_admin()
    editor = join(api, ada.org_id, "Eve", "edit")
    guest = join(api, ada.org_id, "Gus", None)
    join(api, ada.org_id, "Rita", "read")
    body = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"role": "edit"}).json()
    assert [m["id"] for m in body["items"]] == [editor.user_id]
    assert body["count"] == 1
    body = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"role": "guest"}).json()
    assert [(m["id"], m["role"]) for m in body["items"]] == [(guest.user_id, None)]
    assert body["count"] == 1


def test_search_is_case_insensitive_on_name_and_email(api):
    ada = api.org_admin()
    grace = join(api, ada.org_id, "Grace Hopper", email="admiral@navy.example")
    join(api, ada.org_id, "Linus")
    by_name = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"search": "HOPP"}).json()
    assert [m["id"] for m in by_name["items"]] == [grace.user_id]
    by_email = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"search": "Navy.Ex"}).json()
    assert [m["id"] for m in by_email["items"]] == [grace.user_id]
    assert by_email["count"] == 1
    nobody = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"search": "nobody"}).json()
    assert (nobody["items"], nobody["count"]) == ([], 0)


def test_filtered_pages_follow_the_filter_across_pages(api):
    ada = api.org_admin()
    editors = [join(api, ada.org_id, f"Ed {i}", "edit", joined_at=f"2030-01-0{i}T00:00:00.000Z").user_id
               for i in range(1, 4)]
    join(api, ada.org_id, "Rita", "read", joined_at="2030-01-05T00:00:00.000Z")
    listed = pages(api, f"/orgs/{ada.org_id}/members", ada.token, limit=2, order="asc", role="edit")
    assert [m["id"] for page in listed for m in page["items"]] == editors
    # The total over every page of the filtered listing, on every page.
    assert all(page["count"] == 3 for page in listed)


def test_last_seen_sort_lists_only_active_members_most_recent_first(api, monkeypatch):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob")
    join(api, ada.org_id, "Never Seen")
    assert api.post(f"/orgs/{ada.org_id}/ping", token=bob.token).status == 200
    monkeypatch.setenv("BINDERY_CLOCK_OFFSET_SECONDS", "60")
    assert api.post(f"/orgs/{ada.org_id}/ping", token=ada.token).status == 200
    body = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"sort": "lastSeenAt"}).json()
    assert [m["id"] for m in body["items"]] == [ada.user_id, bob.user_id]
    assert all("lastSeenAt" in m for m in body["items"])
    assert body["count"] == 2


def test_forged_and_foreign_cursors_are_400(api):
    ada = api.org_admin()
    bob = api.org_admin("Bob", "Bobco")
    for org in (ada, bob):
        for i in range(3):
            join(api, org.org_id, f"{org.user_id} {i}")
    first = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"limit": 1}).json()
    cursor = first["next"]["page"]
    forged = cursor[:-2] + ("AA" if not cursor.endswith("AA") else "BB")
    assert "page" in error(api.get(f"/orgs/{ada.org_id}/members", token=ada.token,
                                   query={"page": forged}), 400)
    # The same cursor under another filter, another order, another sort, another organization.
    for query in ({"role": "read"}, {"order": "asc"}, {"sort": "lastSeenAt"}, {"search": "x"}):
        assert "another listing" in error(api.get(f"/orgs/{ada.org_id}/members", token=ada.token,
                                                  query={"page": cursor, **query}), 400)
    assert "another listing" in error(api.get(f"/orgs/{bob.org_id}/members", token=bob.token,
                                              query={"page": cursor}), 400)


@pytest.mark.parametrize(("query", "named"), [
    ({"order": "sideways"}, "order"), ({"role": "owner"}, "role"), ({"sort": "name"}, "sort"),
    ({"limit": 1001}, "limit"), ({"limit": -1}, "limit"),
])
def test_bad_queries_are_400_naming_the_parameter(api, query, named):
    ada = api.org_admin()
    assert named in error(api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query=query), 400)


def test_list_page_costs_one_query_and_a_filter_one_count_query_more(api, request_counter):
    ada = api.org_admin()
    join(api, ada.org_id, "Bob")
    request_counter.clear()
    assert api.get(f"/orgs/{ada.org_id}/members", token=ada.token).status == 200
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1, "Query": 1}
    request_counter.clear()
    assert api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"search": "bob"}).status == 200
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1, "Query": 2}


# --- reading one --------------------------------------------------------------------------------
def test_get_member_and_its_cost(api, request_counter):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "comment")
    request_counter.clear()
    reply = api.get(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token)
    assert reply.status == 200, reply.body
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1}
    body = reply.json()
    assert set(body) >= MEMBER_FIELDS
    assert (body["id"], body["role"], body["user"]["id"]) == (bob.user_id, "comment", bob.user_id)
    assert "No matching member" in error(api.get(f"/orgs/{ada.org_id}/members/nobody", token=ada.token), 404)


def test_non_members_get_404_for_everything(api):
    ada = api.org_admin()
    mallory = api.org_admin("Mallory", "Evil")
    base = f"/orgs/{ada.org_id}/members"
    for method, path, body in (("get", base, None), ("get", f"{base}/{ada.user_id}", None),
                               ("patch", f"{base}/{ada.user_id}", {"role": "read"}),
                               ("delete", f"{base}/{ada.user_id}", None),
                               ("post", f"{base}/{ada.user_id}/sso", None),
                               ("get", f"{base}/{ada.user_id}/teams", None)):
        reply = getattr(api, method)(path, token=mallory.token, body=body)
        assert error(reply, 404) == "No matching organization", (method, path)
    # Members of another organization are not members of this one.
    assert error(api.get(f"{base}/{mallory.user_id}", token=ada.token), 404) == "No matching member"
    assert get_member(ada.org_id, ada.user_id).role == "admin"


def test_guests_see_only_themselves(api):
    ada = api.org_admin()
    guest = join(api, ada.org_id, "Gus", None)
    assert "read role" in error(api.get(f"/orgs/{ada.org_id}/members", token=guest.token), 403)
    assert error(api.get(f"/orgs/{ada.org_id}/members/{ada.user_id}", token=guest.token), 403)
    reply = api.get(f"/orgs/{ada.org_id}/members/{guest.user_id}", token=guest.token)
    assert reply.status == 200
    assert reply.json()["role"] is None


# --- roles ------------------------------------------------------------------------------------
def test_admin_changes_roles_and_the_admin_counter_follows(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    path = f"/orgs/{ada.org_id}/members/{bob.user_id}"
    reply = api.patch(path, token=ada.token, body={"role": "admin"})
    assert reply.status == 200, reply.body
    assert reply.json()["role"] == "admin"
    assert org_counters(ada.org_id)[:2] == (2, 2)
    assert api.patch(path, token=ada.token, body={"role": None}).json()["role"] is None
    assert get_member(ada.org_id, bob.user_id).role is None
    assert org_counters(ada.org_id)[:2] == (2, 1)
    assert api.get(path, token=ada.token).json()["role"] is None


def test_the_last_admin_cannot_be_demoted_but_one_of_two_can(api):
    ada = api.org_admin()
    own = f"/orgs/{ada.org_id}/members/{ada.user_id}"
    message = error(api.patch(own, token=ada.token, body={"role": "edit"}), 400)
    assert "at least one admin" in message
    assert get_member(ada.org_id, ada.user_id).role == "admin"
    join(api, ada.org_id, "Bob", "admin")
    assert api.patch(own, token=ada.token, body={"role": "edit"}).json()["role"] == "edit"
    assert org_counters(ada.org_id)[:2] == (2, 1)


def test_role_changes_need_an_admin_a_member_and_a_valid_role(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "create")
    path = f"/orgs/{ada.org_id}/members/{ada.user_id}"
    assert "admin role" in error(api.patch(path, token=bob.token, body={"role": "read"}), 403)
    assert "role" in error(api.patch(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token,
                                     body={"role": "owner"}), 400)
    assert "role" in error(api.patch(path, token=ada.token, body={}), 400)
    assert error(api.patch(f"/orgs/{ada.org_id}/members/ghost", token=ada.token, body={"role": "read"}), 404)


def test_sso_is_for_admins_and_marks_the_member(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    path = f"/orgs/{ada.org_id}/members/{bob.user_id}/sso"
    assert error(api.post(path, token=bob.token), 403)
    reply = api.post(path, token=ada.token)
    assert reply.status == 200, reply.body
    assert (reply.json()["id"], reply.json()["sso"]) == (bob.user_id, True)
    assert get_member(ada.org_id, bob.user_id).sso is True
    assert error(api.post(f"/orgs/{ada.org_id}/members/ghost/sso", token=ada.token), 404)


# --- removal ----------------------------------------------------------------------------------
def test_removing_a_member_takes_their_team_memberships_and_counters_along(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "admin")
    cat = join(api, ada.org_id, "Cat", "edit")
    red = team(api, ada, "Red", [bob.user_id, cat.user_id])
    blue = team(api, ada, "Blue", [bob.user_id])
    assert org_counters(ada.org_id) == (3, 2, 2)
    reply = api.delete(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token)
    assert reply.status == 204
    assert reply.body == b""
    assert get_member(ada.org_id, bob.user_id) is None
    assert org_counters(ada.org_id) == (2, 1, 2)
    teams = api.get(f"/orgs/{ada.org_id}/teams", token=ada.token).json()["items"]
    assert {t["id"]: t["members"] for t in teams} == {red: 1, blue: 0}
    listed = api.get(f"/orgs/{ada.org_id}/teams/{red}/members", token=ada.token).json()["items"]
    assert [m["organization"]["id"] for m in listed] == [cat.user_id]
    # The removed member's token now finds no organization.
    assert error(api.get(f"/orgs/{ada.org_id}", token=bob.token), 404)


def test_members_may_leave_but_not_remove_others(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    cat = join(api, ada.org_id, "Cat", "edit")
    reply = api.delete(f"/orgs/{ada.org_id}/members/{cat.user_id}", token=bob.token)
    assert "admin role" in error(reply, 403)
    assert api.delete(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=bob.token).status == 204
    assert get_member(ada.org_id, bob.user_id) is None
    assert get_member(ada.org_id, cat.user_id) is not None
    assert org_counters(ada.org_id)[0] == 2


def test_removing_someone_who_is_not_a_member_is_204_and_changes_nothing(api):
    ada = api.org_admin()
    assert api.delete(f"/orgs/{ada.org_id}/members/ghost", token=ada.token).status == 204
    assert org_counters(ada.org_id) == (1, 1, 0)


def test_the_last_admin_can_neither_leave_nor_be_removed(api):
    ada = api.org_admin()
    assert "at least one admin" in error(api.delete(f"/orgs/{ada.org_id}/members/{ada.user_id}",
                                                    token=ada.token), 400)
    assert get_member(ada.org_id, ada.user_id) is not None
    bob = join(api, ada.org_id, "Bob", "admin")
    assert api.delete(f"/orgs/{ada.org_id}/members/{ada.user_id}", token=bob.token).status == 204
    assert org_counters(ada.org_id)[:2] == (1, 1)
    assert error(api.delete(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=bob.token), 400)
