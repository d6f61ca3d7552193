"""Collections: create and list (ORG/collections), read, change, delete and list the spaces of one
(/collections/{collectionId}) through API Gateway events. Moves are in test_move.py, transfers in
test_transfer.py."""

from __future__ import annotations

import pytest

from bindery import keys
from bindery.store import collections as collection_store
from bindery.store import grants as grant_store
from bindery.store import table
from bindery.store import tree as tree_store
from tests.api.members.test_members import error, join, pages, sizes, team
from tests.api.spaces.test_spaces import give, new_space

COLLECTION_FIELDS = {"object", "id", "title", "organization", "defaultLevel", "urls", "permissions"}
ALL = {"view": True, "admin": True, "viewInviteLinks": True, "create": True}


# --- helpers (shared with test_move.py and test_transfer.py) ------------------------------------
def new_collection(api, who, title="Guides", parent=None, **body):
    if parent:
        body["parent"] = parent
    reply = api.post(f"/orgs/{who.org_id}/collections", token=who.token, body={"title": title, **body})
    assert reply.status == 201, reply.body
    return reply.json()["id"]


def space_in(api, who, parent=None, title="Space"):
    return new_space(api, who, title=title, **({"parent": parent} if parent else {}))["id"]


def order(org_id, parent=None):
    """The ids of the live spaces and collections directly under `parent`, in sibling order (GSI2)."""
    return [item["id"] for item in tree_store.all_children(org_id, parent)]


def listed(api, who, path, **query):
    return [item["id"] for page in pages(api, path, who.token, **query) for item in page["items"]]


def stored(collection_id):
    return collection_store.get_collection(collection_id)


# --- create -------------------------------------------------------------------------------------
def test_create_in_the_spec_shape_with_a_location(api):
    ada = api.org_admin()
    reply = api.post(f"/orgs/{ada.org_id}/collections", token=ada.token, body={"title": "Guides"})
    assert reply.status == 201, reply.body
    body = reply.json()
    assert set(body) == COLLECTION_FIELDS
    assert (body["object"], body["title"], body["organization"]) == ("collection", "Guides", ada.org_id)
    assert body["defaultLevel"] == "inherit"
    assert body["permissions"] == ALL
    assert body["urls"]["location"].endswith(f"/v1/collections/{body['id']}")
    assert reply.headers["Location"] == body["urls"]["location"]
    assert api.get(f"/collections/{body['id']}", token=ada.token).json() == body


def test_create_without_a_body_or_a_title_is_untitled(api):
    ada = api.org_admin()
    bare = api.post(f"/orgs/{ada.org_id}/collections", token=ada.token)
    assert bare.status == 201, bare.body
    assert bare.json()["title"] == "Untitled"
    empty = api.post(f"/orgs/{ada.org_id}/collections", token=ada.token, body={})
    assert empty.json()["title"] == "Untitled"


def test_create_nested_records_the_path_to_the_top(api):
    ada = api.org_admin()
    top = new_collection(api, ada, "Top")
    middle = new_collection(api, ada, "Middle", top)
    reply = api.post(f"/orgs/{ada.org_id}/collections", token=ada.token,
                     body={"title": "Leaf", "parent": middle})
    assert reply.status == 201
    assert reply.json()["parent"] == middle
    assert stored(reply.json()["id"]).ancestors == [middle, top]
    assert order(ada.org_id, middle) == [reply.json()["id"]]


def test_new_collections_go_after_the_last_sibling(api):
    ada = api.org_admin()
    first = space_in(api, ada)
    second = new_collection(api, ada, "B")
    third = space_in(api, ada)
    fourth = new_collection(api, ada, "D")
    assert order(ada.org_id) == [first, second, third, fourth]
    assert listed(api, ada, f"/orgs/{ada.org_id}/collections", nested="false") == [second, fourth]


@pytest.mark.parametrize(("body", "named"), [
    ({"title": "x" * 51}, "title"), ({"title": 5}, "title"), ({"parent": ""}, "parent"),
    ({"parent": 7}, "parent"),
])
def test_bad_create_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    assert named in error(api.post(f"/orgs/{ada.org_id}/collections", token=ada.token, body=body), 400)
    assert order(ada.org_id) == []


def test_a_parent_unknown_foreign_or_hidden_is_400(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    foreign = new_collection(api, olga, "Theirs")
    hidden = new_collection(api, ada, "Hidden")
    assert api.patch(f"/collections/{hidden}", token=ada.token, body={"defaultLevel": None}).status == 200
    bob = join(api, ada.org_id, "Bob", "create")
    for parent, who in ((foreign, ada), ("nope", ada), (hidden, bob)):
        reply = api.post(f"/orgs/{ada.org_id}/collections", token=who.token, body={"parent": parent})
        assert error(reply, 400) == "parent: no matching collection"
    assert order(ada.org_id, hidden) == []


def test_who_may_create(api):
    ada = api.org_admin()
    reader = join(api, ada.org_id, "Rita", "read")
    creator = join(api, ada.org_id, "Cole", "create")
    assert "create role" in error(api.post(f"/orgs/{ada.org_id}/collections", token=reader.token,
                                           body={"title": "No"}), 403)
    made = new_collection(api, creator, "Mine")
    # The creator's role where it was created is `create`: not an admin of it.
    assert api.get(f"/collections/{made}", token=creator.token).json()["permissions"] == {
        "view": True, "admin": False, "viewInviteLinks": False, "create": True}
    # A collection that lowers the level to `read` keeps `create` members out of it ...
    locked = new_collection(api, ada, "Locked")
    assert api.patch(f"/collections/{locked}", token=ada.token, body={"defaultLevel": "read"}).status == 200
    reply = api.post(f"/orgs/{ada.org_id}/collections", token=creator.token, body={"parent": locked})
    assert "create role in the parent" in error(reply, 403)
    # ... and a grant on it lets a reader in.
    give("collection", locked, "user", reader.user_id, "create")
    inner = new_collection(api, reader, "Inner", locked)
    assert order(ada.org_id, locked) == [inner]


def test_non_members_get_404(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    mine = new_collection(api, ada)
    assert error(api.post(f"/orgs/{ada.org_id}/collections", token=olga.token, body={}), 404)
    assert error(api.get(f"/orgs/{ada.org_id}/collections", token=olga.token), 404)
    for path in (f"/collections/{mine}", f"/collections/{mine}/spaces", "/collections/nope"):
        assert error(api.get(path, token=olga.token), 404) == "No matching collection"
    assert error(api.patch(f"/collections/{mine}", token=olga.token, body={"title": "X"}), 404)
    assert stored(mine).title == "Guides"


# --- list ---------------------------------------------------------------------------------------
def test_nested_lists_every_collection_top_level_only_the_top(api):
    ada = api.org_admin()
    top = new_collection(api, ada, "A")
    inner = new_collection(api, ada, "B", top)
    other = new_collection(api, ada, "C")
    reply = api.get(f"/orgs/{ada.org_id}/collections", token=ada.token)
    assert reply.status == 200
    body = reply.json()
    assert "next" not in body
    assert [item["id"] for item in body["items"]] == [top, inner, other]
    assert all(set(item) >= COLLECTION_FIELDS for item in body["items"])
    assert listed(api, ada, f"/orgs/{ada.org_id}/collections", nested="true") == [top, inner, other]
    assert listed(api, ada, f"/orgs/{ada.org_id}/collections", nested="false") == [top, other]


def test_list_shows_only_what_the_caller_can_see(api):
    ada = api.org_admin()
    rita = join(api, ada.org_id, "Rita", "read")
    public = new_collection(api, ada, "Public")
    private = new_collection(api, ada, "Private")
    inside = new_collection(api, ada, "Inside", private)  # inherits: private too
    opened = new_collection(api, ada, "Opened", private)
    api.patch(f"/collections/{private}", token=ada.token, body={"defaultLevel": None})
    api.patch(f"/collections/{opened}", token=ada.token, body={"defaultLevel": "comment"})
    path = f"/orgs/{ada.org_id}/collections"
    assert listed(api, ada, path) == [public, private, inside, opened]
    assert listed(api, rita, path) == [public, opened]
    assert listed(api, rita, path, nested="false") == [public]
    assert error(api.get(f"/collections/{inside}", token=rita.token), 404)
    assert api.get(f"/collections/{opened}", token=rita.token).json()["permissions"]["view"] is True
    # A grant on the collection, to her or to her team, lets her see it and what inherits from it.
    crew = team(api, ada, "Crew", [rita.user_id])
    give("collection", private, "team", crew, "read")
    assert listed(api, rita, path) == [public, private, inside, opened]


def test_list_page_costs_one_query_and_one_batch(api, request_counter):
    ada = api.org_admin()
    top = new_collection(api, ada, "A")
    for title in ("B", "C"):
        new_collection(api, ada, title, top)
    request_counter.clear()
    assert len(api.get(f"/orgs/{ada.org_id}/collections", token=ada.token).json()["items"]) == 3
    assert request_counter == {"GetItem": 1, "Query": 1, "BatchGetItem": 1}  # GetItem: the token


def test_list_pages_each_collection_once_in_order(api):
    ada = api.org_admin()
    made = [new_collection(api, ada, f"C{index}") for index in range(5)]
    for nested in ("true", "false"):
        listed_pages = pages(api, f"/orgs/{ada.org_id}/collections", ada.token, limit=2, nested=nested)
        assert sizes(listed_pages) == [2, 2, 1]
        assert [item["id"] for page in listed_pages for item in page["items"]] == made


def test_list_cursors_are_signed_and_scoped(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    for index in range(3):
        new_collection(api, ada, f"C{index}")
    path = f"/orgs/{ada.org_id}/collections"
    cursor = api.get(path, token=ada.token, query={"limit": 1}).json()["next"]["page"]
    assert "page" in error(api.get(path, token=ada.token, query={"page": cursor + "x"}), 400)
    assert "another listing" in error(api.get(path, token=ada.token,
                                              query={"page": cursor, "nested": "false"}), 400)
    other = f"/orgs/{olga.org_id}/collections"
    assert "another listing" in error(api.get(other, token=olga.token, query={"page": cursor}), 400)
    assert "limit" in error(api.get(path, token=ada.token, query={"limit": 1001}), 400)
    assert "nested" in error(api.get(path, token=ada.token, query={"nested": "maybe"}), 400)


# --- update -------------------------------------------------------------------------------------
def test_update_title_description_and_level(api):
    ada = api.org_admin()
    made = new_collection(api, ada)
    reply = api.patch(f"/collections/{made}", token=ada.token,
                      body={"title": "Manuals", "description": "All of them", "defaultLevel": "comment"})
    assert reply.status == 200, reply.body
    body = reply.json()
    assert (body["title"], body["description"], body["defaultLevel"]) == ("Manuals", "All of them", "comment")
    assert api.get(f"/collections/{made}", token=ada.token).json() == body
    private = api.patch(f"/collections/{made}", token=ada.token, body={"defaultLevel": None}).json()
    assert private["defaultLevel"] is None
    assert private["title"] == "Manuals"
    assert api.patch(f"/collections/{made}", token=ada.token,
                     body={"defaultLevel": "inherit"}).json()["defaultLevel"] == "inherit"
    # An empty PATCH changes nothing and answers the collection.
    assert api.patch(f"/collections/{made}", token=ada.token, body={}).json()["title"] == "Manuals"


@pytest.mark.parametrize(("body", "named"), [
    ({"title": "x" * 51}, "title"), ({"title": None}, "title"), ({"description": "d" * 101}, "description"),
    ({"description": None}, "description"), ({"defaultLevel": "owner"}, "defaultLevel"),
])
def test_bad_update_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    made = new_collection(api, ada)
    assert named in error(api.patch(f"/collections/{made}", token=ada.token, body=body), 400)
    assert stored(made).title == "Guides"


def test_only_admins_of_the_collection_update_it(api):
    ada = api.org_admin()
    cole = join(api, ada.org_id, "Cole", "create")
    rita = join(api, ada.org_id, "Rita", "read")
    made = new_collection(api, ada)
    reply = api.patch(f"/collections/{made}", token=cole.token, body={"title": "X"})
    assert "admin role" in error(reply, 403)
    give("collection", made, "user", rita.user_id, "admin")
    reply = api.patch(f"/collections/{made}", token=rita.token, body={"title": "Rita's"})
    assert reply.status == 200
    assert reply.json()["permissions"]["admin"] is True
    assert stored(made).title == "Rita's"


def test_the_answer_shows_the_callers_role_under_the_new_level(api):
    ada = api.org_admin()
    rita = join(api, ada.org_id, "Rita", "read")
    top = new_collection(api, ada, "Top")
    inner = new_collection(api, ada, "Inner", top)
    api.patch(f"/collections/{top}", token=ada.token, body={"defaultLevel": "admin"})
    # Rita is admin of Inner only through the level it inherits; lowering that level lowers her role.
    body = api.patch(f"/collections/{inner}", token=rita.token, body={"defaultLevel": "comment"}).json()
    assert body["permissions"] == {"view": True, "admin": False, "viewInviteLinks": False, "create": False}
    reply = api.patch(f"/collections/{inner}", token=rita.token, body={"title": "X"})
    assert "admin role" in error(reply, 403)


# --- delete -------------------------------------------------------------------------------------
def test_delete_removes_it_from_reads_and_listings(api):
    ada = api.org_admin()
    rita = join(api, ada.org_id, "Rita", "read")
    made = new_collection(api, ada)
    kept = new_collection(api, ada, "Kept")
    give("collection", made, "user", rita.user_id, "edit")
    reply = api.delete(f"/collections/{made}", token=ada.token)
    assert (reply.status, reply.body) == (204, b"")
    assert error(api.get(f"/collections/{made}", token=ada.token), 404)
    assert listed(api, ada, f"/orgs/{ada.org_id}/collections") == [kept]
    assert order(ada.org_id) == [kept]
    # Its grants went with it.
    assert grant_store.grants_page("collection", made, "user", 10, None).items == []
    assert table.get(keys.grant("collection", made, "user", rita.user_id)) is None
    assert api.delete(f"/collections/{made}", token=ada.token).status == 204
    assert api.delete("/collections/never-was", token=ada.token).status == 204


def test_delete_refuses_a_collection_that_holds_content(api):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    inner = new_collection(api, ada, "Inner", holder)
    assert "still holds" in error(api.delete(f"/collections/{holder}", token=ada.token), 400)
    assert api.delete(f"/collections/{inner}", token=ada.token).status == 204
    space = space_in(api, ada, holder)
    assert "still holds" in error(api.delete(f"/collections/{holder}", token=ada.token), 400)
    assert stored(holder) is not None
    # A deleted space no longer holds its collection.
    assert api.delete(f"/spaces/{space}", token=ada.token).status == 204
    assert api.delete(f"/collections/{holder}", token=ada.token).status == 204
    assert stored(holder) is None
    # Restoring the space afterwards puts it at the top level.
    restored = api.post(f"/spaces/{space}/restore", token=ada.token)
    assert restored.status == 200, restored.body
    assert "parent" not in restored.json()
    assert order(ada.org_id) == [space]


def test_only_admins_delete_and_strangers_get_404(api):
    ada = api.org_admin()
    cole = join(api, ada.org_id, "Cole", "create")
    olga = api.org_admin("Olga", "Other")
    made = new_collection(api, ada)
    assert "admin role" in error(api.delete(f"/collections/{made}", token=cole.token), 403)
    assert error(api.delete(f"/collections/{made}", token=olga.token), 404) == "No matching collection"
    assert stored(made) is not None


# --- spaces of a collection ---------------------------------------------------------------------
def test_spaces_of_a_collection_in_sibling_order(api):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    first = space_in(api, ada, holder, "First")
    new_collection(api, ada, "Not a space", holder)
    second = space_in(api, ada, holder, "Second")
    space_in(api, ada, None, "Elsewhere")
    reply = api.get(f"/collections/{holder}/spaces", token=ada.token)
    assert reply.status == 200
    items = reply.json()["items"]
    assert [item["id"] for item in items] == [first, second]
    assert all(item["object"] == "space" and item["parent"] == holder for item in items)
    assert items[0]["permissions"]["admin"] is True


def test_spaces_of_a_collection_only_those_visible_and_live(api):
    ada = api.org_admin()
    rita = join(api, ada.org_id, "Rita", "read")
    holder = new_collection(api, ada, "Holder")
    shown = space_in(api, ada, holder, "Shown")
    hidden = space_in(api, ada, holder, "Hidden")
    gone = space_in(api, ada, holder, "Gone")
    api.patch(f"/spaces/{hidden}", token=ada.token, body={"defaultLevel": None})
    api.delete(f"/spaces/{gone}", token=ada.token)
    path = f"/collections/{holder}/spaces"
    assert listed(api, ada, path) == [shown, hidden]
    items = api.get(path, token=rita.token).json()["items"]
    assert [item["id"] for item in items] == [shown]
    assert items[0]["permissions"]["edit"] is False
    # count is what each caller sees (never the deleted one), on every page.
    assert {page["count"] for page in pages(api, path, ada.token, limit=1)} == {2}
    assert {page["count"] for page in pages(api, path, rita.token, limit=1)} == {1}
    give("space", hidden, "user", rita.user_id, "edit")
    assert listed(api, rita, path) == [shown, hidden]
    assert api.get(path, token=rita.token).json()["count"] == 2


def test_spaces_of_a_collection_page_with_scoped_cursors(api):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    other = new_collection(api, ada, "Other")
    made = [space_in(api, ada, holder, f"S{index}") for index in range(5)]
    listed_pages = pages(api, f"/collections/{holder}/spaces", ada.token, limit=2)
    assert sizes(listed_pages) == [2, 2, 1]
    assert [item["id"] for page in listed_pages for item in page["items"]] == made
    assert [page["count"] for page in listed_pages] == [5, 5, 5]
    cursor = listed_pages[0]["next"]["page"]
    reply = api.get(f"/collections/{other}/spaces", token=ada.token, query={"page": cursor})
    assert "another listing" in error(reply, 400)


def test_spaces_of_a_hidden_collection_are_404(api):
    ada = api.org_admin()
    rita = join(api, ada.org_id, "Rita", "read")
    holder = new_collection(api, ada, "Holder")
    space_in(api, ada, holder)
    api.patch(f"/collections/{holder}", token=ada.token, body={"defaultLevel": None})
    assert error(api.get(f"/collections/{holder}/spaces", token=rita.token), 404)
