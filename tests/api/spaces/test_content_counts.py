"""`count` of ORG/spaces and ORG/collections: the organization's live spaces and collections, kept in the
transactions that create, duplicate, delete, restore and transfer them, for organization admins (who
see every one of them); anyone else is told how many they see (the organization's total would reveal
what they cannot see)."""

from __future__ import annotations

from tests.api.members.test_members import join, pages
from tests.api.spaces.test_collections import new_collection
from tests.api.spaces.test_spaces import new_space
from tests.api.spaces.test_transfer import transferred, two_orgs


def space_count(api, who, org_id):
    return api.get(f"/orgs/{org_id}/spaces", token=who.token).json().get("count")


def collection_count(api, who, org_id, **query):
    return api.get(f"/orgs/{org_id}/collections", token=who.token, query=query).json().get("count")


def test_space_count_follows_create_duplicate_delete_and_restore(api):
    ada = api.org_admin()
    assert space_count(api, ada, ada.org_id) == 0
    spaces = [new_space(api, ada, title=f"S{index}")["id"] for index in range(3)]
    listed = pages(api, f"/orgs/{ada.org_id}/spaces", ada.token, limit=2)
    # The total over all pages, on every page.
    assert [page["count"] for page in listed] == [3] * len(listed)
    assert api.post(f"/spaces/{spaces[0]}/duplicate", token=ada.token).status == 201
    assert space_count(api, ada, ada.org_id) == 4
    assert api.delete(f"/spaces/{spaces[1]}", token=ada.token).status == 204
    # A deleted space is not counted, and deleting it again moves nothing.
    assert api.delete(f"/spaces/{spaces[1]}", token=ada.token).status == 204
    assert space_count(api, ada, ada.org_id) == 3
    assert api.post(f"/spaces/{spaces[1]}/restore", token=ada.token).status == 200
    assert space_count(api, ada, ada.org_id) == 4


def test_others_get_the_count_of_what_they_see(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    new_space(api, ada)
    new_collection(api, ada)
    assert (space_count(api, ada, ada.org_id), collection_count(api, ada, ada.org_id)) == (1, 1)
    assert (space_count(api, bob, ada.org_id), collection_count(api, bob, ada.org_id)) == (1, 1)
    private = new_collection(api, ada, "Private")
    assert api.patch(f"/collections/{private}", token=ada.token, body={"defaultLevel": None}).status == 200
    new_space(api, ada, parent=private)
    assert (space_count(api, ada, ada.org_id), collection_count(api, ada, ada.org_id)) == (2, 2)
    assert (space_count(api, bob, ada.org_id), collection_count(api, bob, ada.org_id)) == (1, 1)


def test_collection_count_follows_create_and_delete_and_counts_nested_ones(api):
    ada = api.org_admin()
    outer = new_collection(api, ada, "Outer")
    inner = new_collection(api, ada, "Inner", parent=outer)
    assert collection_count(api, ada, ada.org_id) == 2
    # The top-level listing is another listing: counted by its first page, the nested one left out.
    assert collection_count(api, ada, ada.org_id, nested="false") == 1
    assert api.delete(f"/collections/{inner}", token=ada.token).status == 204
    assert collection_count(api, ada, ada.org_id) == 1


def test_transfers_move_the_counts_between_organizations(api):
    ada, beta = two_orgs(api)
    box = new_collection(api, ada, "Box")
    inside = [new_space(api, ada, title=f"In {index}", parent=box)["id"] for index in range(2)]
    deleted = new_space(api, ada, title="Gone", parent=box)["id"]
    assert api.delete(f"/spaces/{deleted}", token=ada.token).status == 204
    lone = new_space(api, ada, title="Lone")["id"]
    assert (space_count(api, ada, ada.org_id), collection_count(api, ada, ada.org_id)) == (3, 1)
    transferred(api, ada, "collection", box, beta.org_id)
    # The deleted space stays behind, uncounted.
    assert (space_count(api, ada, ada.org_id), collection_count(api, ada, ada.org_id)) == (1, 0)
    assert (space_count(api, ada, beta.org_id), collection_count(api, ada, beta.org_id)) == (2, 1)
    transferred(api, ada, "space", lone, beta.org_id)
    assert (space_count(api, ada, ada.org_id), space_count(api, ada, beta.org_id)) == (0, 3)
    assert len(api.get(f"/orgs/{beta.org_id}/spaces", token=ada.token).json()["items"]) == len(inside) + 1


def test_the_count_costs_no_request_more(api, request_counter):
    ada = api.org_admin()
    new_space(api, ada, parent=new_collection(api, ada))
    for path in ("spaces", "collections"):
        request_counter.clear()
        assert api.get(f"/orgs/{ada.org_id}/{path}", token=ada.token).json()["count"] == 1
        # The organization item is read in the BatchGetItem that reads the caller's membership.
        assert request_counter == {"GetItem": 1, "Query": 1, "BatchGetItem": 1}
