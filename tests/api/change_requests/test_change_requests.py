"""Change requests through the API: create (numbered per space), read by id or number, change subject,
description and status (with the space's counters following), list by space and organization."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery.store import change_requests as cr_store
from bindery.store import spaces as space_store
from bindery.store import table
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.members.test_members import error, join, pages
from tests.api.spaces.test_spaces import new_space


def new_cr(api, who, space_id, **body):
    reply = api.post(f"/spaces/{space_id}/change-requests", token=who.token, body=body)
    assert reply.status == 201, reply.body
    return reply.json()


def counters(api, who, space_id):
    body = api.get(f"/spaces/{space_id}", token=who.token).json()
    return body["changeRequests"], body["changeRequestsOpen"], body["changeRequestsDraft"]


@pytest.fixture
def setup(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    publish(space_id, tree(page("p1", "Intro")), {"p1": doc("Hello")})
    return ada, space_id


def test_create_numbers_per_space_and_starts_from_the_current_revision(api, setup):
    ada, space_id = setup
    space = space_store.get_space(space_id)
    reply = api.post(f"/spaces/{space_id}/change-requests", token=ada.token, body={"subject": "Fix typo"})
    assert reply.status == 201, reply.body
    first = reply.json()
    assert reply.headers["Location"] == first["urls"]["location"]
    assert first["object"] == "change-request"
    assert (first["number"], first["status"], first["subject"]) == (1, "open", "Fix typo")
    assert first["revision"] == first["revisionInitial"] == space.revision
    assert first["outdated"] is False
    assert first["comments"] == 0
    assert first["createdBy"]["id"] == ada.user_id
    assert first["space"] == space_id
    second = new_cr(api, ada, space_id)
    assert (second["number"], second["subject"]) == (2, "")
    assert counters(api, ada, space_id) == (2, 2, 0)
    other = new_space(api, ada)["id"]
    assert new_cr(api, ada, other)["number"] == 1


def test_get_by_id_or_number_and_unknown_is_404(api, setup):
    ada, space_id = setup
    created = new_cr(api, ada, space_id, subject="One")
    by_id = api.get(f"/spaces/{space_id}/change-requests/{created['id']}", token=ada.token)
    assert by_id.status == 200
    assert by_id.json() == created
    by_number = api.get(f"/spaces/{space_id}/change-requests/1", token=ada.token)
    assert by_number.status == 200
    assert by_number.json()["id"] == created["id"]
    error(api.get(f"/spaces/{space_id}/change-requests/2", token=ada.token), 404)
    error(api.get(f"/spaces/{space_id}/change-requests/nope", token=ada.token), 404)
    # Another space's change request is not found through this one.
    other = new_space(api, ada)["id"]
    error(api.get(f"/spaces/{other}/change-requests/{created['id']}", token=ada.token), 404)


def test_roles_readers_read_editors_create_outsiders_see_nothing(api, setup):
    ada, space_id = setup
    reader = join(api, ada.org_id, "Rita", "read")
    editor = join(api, ada.org_id, "Ed", "edit")
    stranger = api.org_admin("Sam", "Other")
    error(api.post(f"/spaces/{space_id}/change-requests", token=reader.token, body={}), 403)
    created = new_cr(api, editor, space_id)
    assert api.get(f"/spaces/{space_id}/change-requests/{created['id']}", token=reader.token).status == 200
    error(api.get(f"/spaces/{space_id}/change-requests/{created['id']}", token=stranger.token), 404)
    error(api.post(f"/spaces/{space_id}/change-requests", token=stranger.token, body={}), 404)
    error(api.patch(f"/spaces/{space_id}/change-requests/{created['id']}", token=reader.token,
                    body={"subject": "x"}), 403)


def test_bad_bodies_are_400_naming_the_field(api, setup):
    ada, space_id = setup
    message = error(api.post(f"/spaces/{space_id}/change-requests", token=ada.token,
                             body={"subject": "x" * 101}), 400)
    assert "subject" in message
    created = new_cr(api, ada, space_id)
    path = f"/spaces/{space_id}/change-requests/{created['id']}"
    assert "status" in error(api.patch(path, token=ada.token, body={"status": "merged"}), 400)
    assert "description" in error(api.patch(path, token=ada.token, body={"description": {"nodes": []}}), 400)
    assert counters(api, ada, space_id) == (1, 1, 0)


def test_patch_subject_description_and_status_moves_counters(api, setup):
    ada, space_id = setup
    created = new_cr(api, ada, space_id)
    path = f"/spaces/{space_id}/change-requests/{created['id']}"
    description = doc("Why this change")
    reply = api.patch(path, token=ada.token, body={"subject": "New", "description": description,
                                                   "status": "draft"})
    assert reply.status == 200, reply.body
    body = reply.json()
    assert (body["subject"], body["status"]) == ("New", "draft")
    assert body["description"]["nodes"][0]["nodes"][0]["leaves"][0]["text"] == "Why this change"
    assert body["updatedAt"] > created["updatedAt"] or body["updatedAt"] != created["updatedAt"]
    assert counters(api, ada, space_id) == (1, 0, 1)
    assert api.patch(path, token=ada.token, body={"status": "archived"}).json()["status"] == "archived"
    assert counters(api, ada, space_id) == (1, 0, 0)
    # archived -> draft is not a move the flow allows; archived -> open is.
    assert "status" in error(api.patch(path, token=ada.token, body={"status": "draft"}), 400)
    assert api.patch(path, token=ada.token, body={"status": "open"}).json()["status"] == "open"
    assert counters(api, ada, space_id) == (1, 1, 0)
    # The same status again changes nothing.
    assert api.patch(path, token=ada.token, body={"status": "open"}).status == 200
    assert counters(api, ada, space_id) == (1, 1, 0)


def test_a_stale_status_change_is_refused_and_counters_stay_right(api, setup):
    ada, space_id = setup
    created = new_cr(api, ada, space_id)
    stale = cr_store.get_change_request(space_id, created["id"])
    api.patch(f"/spaces/{space_id}/change-requests/{created['id']}", token=ada.token,
              body={"status": "draft"})

    with pytest.raises(table.TransactionConflict):
        table.transact(cr_store.status_ops(stale, replace(stale, status="archived")))
    assert counters(api, ada, space_id) == (1, 0, 1)


def test_space_listing_by_status_newest_first_with_filters_and_pages(api, setup):
    ada, space_id = setup
    ed = join(api, ada.org_id, "Ed", "edit")
    ids = [new_cr(api, ada, space_id, subject=f"cr{i}")["id"] for i in range(3)]
    eds = new_cr(api, ed, space_id, subject="ed's")["id"]
    api.patch(f"/spaces/{space_id}/change-requests/{ids[0]}", token=ada.token, body={"status": "draft"})
    listed = api.get(f"/spaces/{space_id}/change-requests", token=ada.token)
    assert listed.status == 200, listed.body
    assert [item["id"] for item in listed.json()["items"]] == [eds, ids[2], ids[1]]
    drafts = api.get(f"/spaces/{space_id}/change-requests", token=ada.token, query={"status": "draft"})
    assert [item["id"] for item in drafts.json()["items"]] == [ids[0]]
    assert drafts.json()["count"] == 1
    mine = api.get(f"/spaces/{space_id}/change-requests", token=ada.token, query={"creator": ed.user_id})
    assert [item["id"] for item in mine.json()["items"]] == [eds]
    assert mine.json()["count"] == 1
    first = api.get(f"/spaces/{space_id}/change-requests", token=ada.token, query={"limit": 2}).json()
    assert [item["id"] for item in first["items"]] == [eds, ids[2]]
    rest = api.get(f"/spaces/{space_id}/change-requests", token=ada.token,
                   query={"limit": 2, "page": first["next"]["page"]}).json()
    assert [item["id"] for item in rest["items"]] == [ids[1]]
    # The total over all pages, on every page.
    assert (first["count"], rest["count"]) == (3, 3)
    api.patch(f"/spaces/{space_id}/change-requests/{ids[1]}", token=ada.token, body={"status": "archived"})
    archived = api.get(f"/spaces/{space_id}/change-requests", token=ada.token, query={"status": "archived"})
    assert (archived.json()["count"], [item["id"] for item in archived.json()["items"]]) == (1, [ids[1]])
    assert api.get(f"/spaces/{space_id}/change-requests", token=ada.token).json()["count"] == 2
    # A cursor of another listing (another filter) is refused.
    error(api.get(f"/spaces/{space_id}/change-requests", token=ada.token,
                  query={"status": "draft", "page": first["next"]["page"]}), 400)
    error(api.get(f"/spaces/{space_id}/change-requests", token=ada.token, query={"status": "done"}), 400)


def test_space_listing_is_one_query(api, setup, request_counter):
    ada, space_id = setup
    for _ in range(3):
        new_cr(api, ada, space_id)
    request_counter.clear()
    assert len(api.get(f"/spaces/{space_id}/change-requests", token=ada.token).json()["items"]) == 3
    assert request_counter.get("Query", 0) == 1
    assert "Scan" not in request_counter
    # A filter costs one `Select=COUNT` Query more, for its count.
    request_counter.clear()
    filtered = api.get(f"/spaces/{space_id}/change-requests", token=ada.token, query={"creator": ada.user_id})
    assert filtered.json()["count"] == 3
    assert request_counter.get("Query", 0) == 2


def test_org_listing_shows_only_spaces_the_caller_may_read(api, setup):
    ada, space_id = setup
    private = new_space(api, ada, title="Secret")["id"]
    api.patch(f"/spaces/{private}", token=ada.token, body={"defaultLevel": None})
    visible = new_cr(api, ada, space_id)["id"]
    hidden = new_cr(api, ada, private)["id"]
    rita = join(api, ada.org_id, "Rita", "read")
    path = f"/orgs/{ada.org_id}/change-requests"
    assert [i["id"] for i in api.get(path, token=ada.token).json()["items"]] == [hidden, visible]
    assert [i["id"] for i in api.get(path, token=rita.token).json()["items"]] == [visible]
    # count is what each caller may see, on every page.
    assert [p["count"] for p in pages(api, path, ada.token, limit=1)] == [2, 2]
    assert [p["count"] for p in pages(api, path, rita.token, limit=1)] == [1, 1]
    stranger = api.org_admin("Sam", "Other")
    error(api.get(path, token=stranger.token), 404)
    assert api.get(path, token=ada.token, query={"status": "merged"}).json()["items"] == []


def test_outdated_when_the_space_moves_on(api, setup):
    ada, space_id = setup
    created = new_cr(api, ada, space_id)
    publish(space_id, tree(page("p1", "Intro"), page("p2", "More")), {"p1": doc("Hello")})
    body = api.get(f"/spaces/{space_id}/change-requests/{created['id']}", token=ada.token).json()
    assert body["outdated"] is True


def test_reads_cost_what_their_access_patterns_allow(api, setup, request_counter):
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    request_counter.clear()
    assert api.get(f"/spaces/{space_id}/change-requests/{cr['id']}", token=ada.token).status == 200
    # The caller's token and the space (GetItems), the caller's member item and grants (one
    # BatchGetItem), the change request (GetItem), the users it names (one BatchGetItem).
    by_id = dict(request_counter)
    assert by_id == {"GetItem": 3, "BatchGetItem": 2}
    request_counter.clear()
    assert api.get(f"/spaces/{space_id}/change-requests/{cr['number']}", token=ada.token).status == 200
    by_number = dict(request_counter)
    # a number costs one GSI2 Query more than an id, nothing else
    assert by_number.pop("Query") == 1
    assert by_number == by_id
