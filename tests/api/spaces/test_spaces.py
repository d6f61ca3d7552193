"""Spaces: create and list (ORG/spaces), read and change settings (/spaces/{spaceId}) through API Gateway
events. Delete, restore and duplicate are in test_spaces_lifecycle.py."""

from __future__ import annotations

import base64

import pytest

from bindery import keys
from bindery.domain.spaces.edit_mode import require_editable
from bindery.engines.content.positions import between
from bindery.platform.clock import now_iso
from bindery.platform.errors import Forbidden
from bindery.platform.ids import new_id
from bindery.store import grants as grant_store
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store import tree as tree_store
from bindery.store.collections import Collection, get_collection
from bindery.store.grants import Grant, next_updated_at
from tests.api.members.test_members import error, join, pages, sizes

SPACE_FIELDS = {"object", "id", "title", "emoji", "visibility", "createdAt", "updatedAt", "editMode",
                "mergeRules", "urls", "organization", "revision", "defaultLevel", "comments",
                "changeRequests", "changeRequestsOpen", "changeRequestsDraft", "permissions"}
ALL = {"view", "access", "admin", "viewInviteLinks", "edit", "triggerGitSync", "comment", "merge", "review",
       "installIntegration"}


# --- set-up helpers (shared with test_spaces_lifecycle.py) ---------------------------------------
def new_space(api, who, **body):
    reply = api.post(f"/orgs/{who.org_id}/spaces", token=who.token, body=body)
    assert reply.status == 201, reply.body
    return reply.json()


def new_collection(org_id, *, parent=None, default_level="inherit", title="Guides"):
    """A collection written straight through the store, so these tests do not depend on its routes."""
    above = get_collection(parent) if parent else None
    now = now_iso()
    collection = Collection(
        id=new_id(), org_id=org_id, created_at=now, updated_at=now,
        position=between(tree_store.last_child_position(org_id, parent), None), parent=parent,
        ancestors=[parent, *above.ancestors] if above else [], default_level=default_level, title=title,
    )
    table.transact([table.put_op(collection.to_item(), "attribute_not_exists(PK)")])
    return collection.id


def give(kind, node_id, principal, principal_id, role):
    """A grant as the permission endpoints write it: the node's map entry, the grant item and the
    member's or team's counter, in one transaction."""
    node = space_store.get_space(node_id) if kind == "space" else get_collection(node_id)
    grant = Grant(kind, node_id, node.org_id, principal, principal_id, role)
    table.transact([
        grant_store.node_grants_op(node, {f"{principal}:{principal_id}": role},
                                   next_updated_at(node.updated_at)),
        grant_store.put_grant_op(grant, new=True),
        *grant_store.principal_ops(node, principal, principal_id, 1),
    ])


def raw_space(space_id):
    """The stored item, even when reads treat it as gone."""
    from bindery.platform.aws import dynamodb_table

    return dynamodb_table().get_item(Key=keys.space(space_id), ConsistentRead=True).get("Item")


def listed_ids(api, who, **query):
    reply = api.get(f"/orgs/{who.org_id}/spaces", token=who.token, query=query)
    assert reply.status == 200, reply.body
    return [item["id"] for item in reply.json()["items"]]


# --- create -----------------------------------------------------------------------------------
def test_create_space_in_the_spec_shape(api):
    ada = api.org_admin()
    reply = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"title": "Handbook", "emoji": "📘"})
    assert reply.status == 201, reply.body
    body = reply.json()
    assert set(body) == SPACE_FIELDS
    assert (body["object"], body["title"], body["emoji"], body["organization"]) == (
        "space", "Handbook", "📘", ada.org_id)
    assert (body["visibility"], body["editMode"], body["defaultLevel"]) == ("private", "live", "inherit")
    assert body["mergeRules"] == {"type": "inherit"}
    assert (body["comments"], body["changeRequests"], body["changeRequestsOpen"],
            body["changeRequestsDraft"]) == (0, 0, 0, 0)
    assert body["permissions"] == dict.fromkeys(ALL, True)
    assert body["createdAt"] == body["updatedAt"]
    assert body["urls"]["location"].endswith(f"/v1/spaces/{body['id']}")
    assert "parent" not in body
    # The first revision exists and is empty.
    revision = space_store.get_revision(body["id"], body["revision"])
    assert (revision["pages"], revision["files"], revision["parents"]) == ([], [], [])
    assert api.get(f"/spaces/{body['id']}", token=ada.token).json() == body


def test_create_with_every_field_and_without_a_body(api):
    ada = api.org_admin()
    body = new_space(api, ada, title="Locked", emoji="🔒", language="fr", editMode="locked", empty=True)
    assert (body["language"], body["editMode"]) == ("fr", "locked")
    # A locked space refuses content changes whoever asks: edit and merge are off, even for an admin.
    assert body["permissions"]["edit"] is body["permissions"]["merge"] is False
    assert body["permissions"]["admin"] is True
    reply = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token)
    assert reply.status == 201, reply.body
    assert (reply.json()["title"], reply.json()["emoji"]) == ("Untitled", "")


@pytest.mark.parametrize(("body", "named"), [
    ({"title": "x" * 51}, "title"), ({"title": 5}, "title"), ({"emoji": "x" * 51}, "emoji"),
    ({"language": "xx"}, "language"), ({"editMode": "frozen"}, "editMode"), ({"parent": ""}, "parent"),
    ({"empty": False}, "empty"), ({"template": {"id": "t"}}, "template"), ({"computed": {}}, "computed"),
])
def test_bad_create_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    assert named in error(api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body=body), 400)
    assert listed_ids(api, ada) == []


def test_new_spaces_go_after_the_last_sibling(api):
    ada = api.org_admin()
    guides = new_collection(ada.org_id)
    first, second = new_space(api, ada, title="A"), new_space(api, ada, title="B")
    inner = new_space(api, ada, title="In", parent=guides)
    stored = {sid: space_store.get_space(sid) for sid in (first["id"], second["id"], inner["id"])}
    # The collection was created before the spaces: they follow it at the top level.
    assert get_collection(guides).position < stored[first["id"]].position < stored[second["id"]].position
    assert (inner["parent"], stored[inner["id"]].ancestors) == (guides, [guides])
    nested = new_collection(ada.org_id, parent=guides)
    deep = new_space(api, ada, title="Deep", parent=nested)
    assert space_store.get_space(deep["id"]).ancestors == [nested, guides]
    assert listed_ids(api, ada) == [first["id"], second["id"], inner["id"], deep["id"]]


def test_who_may_create_at_the_top_level(api):
    ada = api.org_admin()
    for role in ("read", "comment", "edit", "review"):
        who = join(api, ada.org_id, f"U{role}", role)
        message = error(api.post(f"/orgs/{ada.org_id}/spaces", token=who.token, body={"title": "T"}), 403)
        assert "create role" in message
    creator = join(api, ada.org_id, "Cat", "create")
    body = new_space(api, creator, title="Mine")
    # The creator's role on the new space is their role where it was created.
    assert (body["permissions"]["edit"], body["permissions"]["admin"]) == (True, False)
    stranger = api.org_admin("Olga", "Other")
    assert error(api.post(f"/orgs/{ada.org_id}/spaces", token=stranger.token, body={}), 404)
    assert listed_ids(api, ada) == [body["id"]]


def test_who_may_create_in_a_collection(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    cat = join(api, ada.org_id, "Cat", "create")
    open_to_all = new_collection(ada.org_id, title="Open")
    read_only = new_collection(ada.org_id, default_level="read", title="ReadOnly")
    private = new_collection(ada.org_id, default_level=None, title="Private")
    # A grant on the collection lets a reader create in it.
    give("collection", open_to_all, "user", bob.user_id, "create")
    assert new_space(api, bob, parent=open_to_all)["parent"] == open_to_all
    assert new_space(api, cat, parent=open_to_all)["parent"] == open_to_all
    # A collection's level limits the organization role; one the caller cannot see is no parent at all.
    assert "create role" in error(api.post(f"/orgs/{ada.org_id}/spaces", token=cat.token,
                                           body={"parent": read_only}), 403)
    assert error(api.post(f"/orgs/{ada.org_id}/spaces", token=cat.token, body={"parent": private}),
                 400) == "parent: no matching collection"
    assert new_space(api, ada, parent=private)["parent"] == private


def test_a_parent_from_another_organization_or_unknown_is_400(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    theirs = new_collection(olga.org_id)
    for parent in (theirs, "no-such-collection"):
        reply = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"parent": parent})
        assert error(reply, 400) == "parent: no matching collection"
    assert listed_ids(api, olga) == []


# --- read -------------------------------------------------------------------------------------
def test_get_space_costs_token_space_and_one_batch(api, request_counter):
    ada = api.org_admin()
    guides = new_collection(ada.org_id)
    sid = new_space(api, ada, parent=guides)["id"]
    request_counter.clear()
    reply = api.get(f"/spaces/{sid}", token=ada.token)
    assert reply.status == 200, reply.body
    # token (authorizer), the space, then the membership and the collections above in one batch
    assert request_counter == {"GetItem": 2, "BatchGetItem": 1}
    assert reply.json()["parent"] == guides


def test_permissions_follow_the_callers_role(api):
    ada = api.org_admin()
    sid = new_space(api, ada)["id"]
    expected = {
        "read": {"view", "access"},
        "comment": {"view", "access", "comment"},
        "edit": {"view", "access", "comment", "edit", "triggerGitSync"},
        "review": {"view", "access", "comment", "edit", "triggerGitSync", "review", "merge"},
        "create": {"view", "access", "comment", "edit", "triggerGitSync", "review", "merge"},
    }
    for role, allowed in expected.items():
        who = join(api, ada.org_id, f"U{role}", role)
        permissions = api.get(f"/spaces/{sid}", token=who.token).json()["permissions"]
        assert {name for name, value in permissions.items() if value} == allowed, role


def test_unknown_foreign_and_hidden_spaces_are_404(api):
    ada = api.org_admin()
    sid = new_space(api, ada)["id"]
    olga = api.org_admin("Olga", "Other")
    guest = join(api, ada.org_id, "Gus", None)
    assert error(api.get("/spaces/nope", token=ada.token), 404) == "No matching space"
    assert error(api.get(f"/spaces/{sid}", token=olga.token), 404) == "No matching space"
    assert error(api.get(f"/spaces/{sid}", token=guest.token), 404) == "No matching space"
    give("space", sid, "user", guest.user_id, "comment")
    assert api.get(f"/spaces/{sid}", token=guest.token).json()["permissions"]["comment"] is True


# --- list -------------------------------------------------------------------------------------
def test_list_shows_the_spaces_the_caller_can_see_in_creation_order(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    guest = join(api, ada.org_id, "Gus", None)
    public = new_space(api, ada, title="Public")["id"]
    private = new_collection(ada.org_id, default_level=None)
    hidden = new_space(api, ada, title="Hidden", parent=private)["id"]
    shared = new_space(api, ada, title="Shared")["id"]
    give("space", shared, "user", guest.user_id, "read")
    assert listed_ids(api, ada) == [public, hidden, shared]
    assert listed_ids(api, bob) == [public, shared]
    assert listed_ids(api, guest) == [shared]
    body = api.get(f"/orgs/{ada.org_id}/spaces", token=bob.token).json()
    assert body["count"] == 2  # what Bob sees: the organization's 3 would tell him of the hidden one
    assert "next" not in body
    # Gus's pages (one space read per page, most of them hidden from him) all say 1.
    assert {page["count"] for page in pages(api, f"/orgs/{ada.org_id}/spaces", guest.token, limit=1)} == {1}
    assert body["items"][0]["permissions"]["view"] is True
    assert body["items"][0]["permissions"]["edit"] is False


def test_list_pages_each_space_once_and_may_be_short(api):
    ada = api.org_admin()
    guest = join(api, ada.org_id, "Gus", None)
    made = [new_space(api, ada, title=f"S{index}")["id"] for index in range(5)]
    listed = pages(api, f"/orgs/{ada.org_id}/spaces", ada.token, limit=2)
    assert sizes(listed) == [2, 2, 1]
    assert [item["id"] for page in listed for item in page["items"]] == made
    # A guest granted two of the five: pages are read before filtering, so some come back short.
    give("space", made[1], "user", guest.user_id, "read")
    give("space", made[4], "user", guest.user_id, "read")
    seen = pages(api, f"/orgs/{ada.org_id}/spaces", guest.token, limit=2)
    assert [item["id"] for page in seen for item in page["items"]] == [made[1], made[4]]
    assert [len(page["items"]) for page in seen][:3] == [1, 0, 1]


def test_list_page_costs_one_query_and_one_batch(api, request_counter):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    outer = new_collection(ada.org_id)
    inner = new_collection(ada.org_id, parent=outer)
    for parent in (None, outer, inner):
        new_space(api, ada, parent=parent)
    request_counter.clear()
    assert len(listed_ids(api, bob)) == 3
    assert request_counter == {"GetItem": 1, "Query": 1, "BatchGetItem": 1}


def test_list_cursors_are_signed_and_scoped(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    for _ in range(2):
        new_space(api, ada)
        new_space(api, olga)
    first = api.get(f"/orgs/{olga.org_id}/spaces", token=olga.token, query={"limit": 1}).json()
    theirs = first["next"]["page"]
    reply = api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token, query={"page": theirs})
    assert "another listing" in error(reply, 400)
    assert "page" in error(api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token,
                                   query={"page": "forged.cursor"}), 400)
    assert "limit" in error(api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token,
                                    query={"limit": 1001}), 400)


def test_a_cursor_does_not_reveal_a_space_the_caller_cannot_see(api):
    ada = api.org_admin()
    carl = join(api, ada.org_id, "Carl", "comment")
    private = new_collection(ada.org_id, default_level=None)
    hidden = new_space(api, ada, title="Hidden", parent=private)
    visible = new_space(api, ada, title="Visible")["id"]
    first = api.get(f"/orgs/{ada.org_id}/spaces", token=carl.token, query={"limit": 1}).json()
    assert first["items"] == []  # the page ended on the hidden space
    cursor = first["next"]["page"]
    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    for secret in (hidden["id"], hidden["createdAt"], ada.org_id):
        assert secret not in cursor
        assert secret.encode() not in raw
    rest = api.get(f"/orgs/{ada.org_id}/spaces", token=carl.token, query={"page": cursor}).json()
    assert [item["id"] for item in rest["items"]] == [visible]


def test_non_members_cannot_list(api):
    ada = api.org_admin()
    new_space(api, ada)
    olga = api.org_admin("Olga", "Other")
    assert error(api.get(f"/orgs/{ada.org_id}/spaces", token=olga.token), 404) == "No matching organization"
    assert error(api.get("/orgs/nope/spaces", token=olga.token), 404) == "No matching organization"


# --- edit mode ----------------------------------------------------------------------------------
def test_require_editable_refuses_locked_spaces():
    space = space_store.Space(id="s", org_id="o", created_at="t", updated_at="t", position="V")
    require_editable(space)
    space.edit_mode = "locked"
    with pytest.raises(Forbidden, match="locked"):
        require_editable(space)
