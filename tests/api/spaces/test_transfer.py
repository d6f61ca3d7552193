"""Transferring spaces and collections to another organization (POST /spaces/{spaceId}/transfer, POST
/collections/{collectionId}/transfer) through API Gateway events."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery import keys
from bindery.platform.clock import now_iso
from bindery.platform.ids import new_id
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store.collections import Collection
from bindery.store.members import get_member
from bindery.store.teams import get_team
from tests.api.members.test_members import error, join, team
from tests.api.spaces.test_collections import listed, new_collection, order, space_in, stored
from tests.api.spaces.test_spaces import give


def two_orgs(api):
    """Ada, an admin of Acme and of Beta."""
    ada = api.org_admin()
    beta = api.org_admin("Bea", "Beta")
    reply = api.post(f"/orgs/{beta.org_id}/invites", token=beta.token,
                     body={"emails": ["ada@example.com"], "role": "admin"})
    assert reply.status == 200, reply.body
    return ada, beta


def transfer(api, who, kind, node_id, organization):
    return api.post(f"/{kind}s/{node_id}/transfer", token=who.token, body={"organization": organization})


def transferred(api, who, kind, node_id, organization):
    reply = transfer(api, who, kind, node_id, organization)
    assert reply.status == 200, reply.body
    return reply.json()


def grant_item(kind, node_id, principal, principal_id):
    return table.get(keys.grant(kind, node_id, principal, principal_id))


# --- what moves ---------------------------------------------------------------------------------
def test_transfer_a_space_to_the_end_of_the_other_top_level(api):
    ada, beta = two_orgs(api)
    holder = new_collection(api, ada, "Holder")
    space = space_in(api, ada, holder)
    already = space_in(api, beta)
    body = transferred(api, ada, "space", space, beta.org_id)
    assert (body["object"], body["id"], body["organization"]) == ("space", space, beta.org_id)
    assert "parent" not in body
    assert body["permissions"]["admin"] is True
    assert api.get(f"/spaces/{space}", token=ada.token).json()["organization"] == beta.org_id
    assert order(beta.org_id) == [already, space]
    assert order(ada.org_id, holder) == []
    # The organization's space listing is in creation order; the tree puts the newcomer last.
    assert listed(api, beta, f"/orgs/{beta.org_id}/spaces") == [space, already]
    assert listed(api, ada, f"/orgs/{ada.org_id}/spaces") == []
    assert space_store.get_space(space).ancestors == []


def test_transfer_a_collection_with_everything_inside(api):
    ada, beta = two_orgs(api)
    outer = new_collection(api, ada, "Outer")
    moving = new_collection(api, ada, "Moving", outer)
    inner = new_collection(api, ada, "Inner", moving)
    deep = space_in(api, ada, inner, "Deep")
    near = space_in(api, ada, moving, "Near")
    body = transferred(api, ada, "collection", moving, beta.org_id)
    assert (body["object"], body["organization"]) == ("collection", beta.org_id)
    assert "parent" not in body
    # The content keeps its place inside; the path to the top stops at the transferred collection.
    assert (stored(moving).ancestors, stored(inner).ancestors) == ([], [moving])
    assert space_store.get_space(deep).ancestors == [inner, moving]
    assert space_store.get_space(near).parent == moving
    assert order(beta.org_id) == [moving]
    assert order(beta.org_id, moving) == [inner, near]
    assert listed(api, beta, f"/collections/{inner}/spaces") == [deep]
    assert listed(api, beta, f"/orgs/{beta.org_id}/collections") == [moving, inner]
    assert listed(api, ada, f"/orgs/{ada.org_id}/collections") == [outer]
    assert order(ada.org_id, outer) == []
    # Bea, admin of Beta, now administers it; Acme's members no longer see it.
    assert api.get(f"/spaces/{deep}", token=beta.token).json()["organization"] == beta.org_id
    rita = join(api, ada.org_id, "Rita", "admin")
    assert error(api.get(f"/collections/{moving}", token=rita.token), 404)


def test_grants_follow_only_members_of_the_target(api):
    ada, beta = two_orgs(api)
    both = join(api, ada.org_id, "Bo", "read")
    api.post(f"/orgs/{beta.org_id}/invites", token=beta.token,
             body={"emails": ["bo@example.com"], "role": "read"})
    only_acme = join(api, ada.org_id, "Al", "read")
    crew = team(api, ada, "Crew", [both.user_id])
    holder = new_collection(api, ada, "Holder")
    space = space_in(api, ada, holder)
    give("space", space, "user", both.user_id, "edit")
    give("space", space, "user", only_acme.user_id, "edit")
    give("space", space, "team", crew, "comment")
    give("collection", holder, "user", only_acme.user_id, "admin")
    give("collection", holder, "user", both.user_id, "review")
    assert (get_member(ada.org_id, both.user_id).spaces, get_team(ada.org_id, crew).spaces) == (1, 1)
    transferred(api, ada, "collection", holder, beta.org_id)
    assert space_store.get_space(space).grants == {f"user:{both.user_id}": "edit"}
    assert stored(holder).grants == {f"user:{both.user_id}": "review"}
    kept = grant_item("space", space, "user", both.user_id)
    assert kept["orgId"] == beta.org_id
    assert kept["GSI1PK"] == keys.user_grants_partition(beta.org_id, both.user_id)
    assert grant_item("space", space, "user", only_acme.user_id) is None
    assert grant_item("space", space, "team", crew) is None
    assert grant_item("collection", holder, "user", only_acme.user_id) is None
    assert grant_item("collection", holder, "user", both.user_id)["orgId"] == beta.org_id
    # The `spaces` counters move with the space grants.
    assert get_member(ada.org_id, both.user_id).spaces == 0
    assert get_member(ada.org_id, only_acme.user_id).spaces == 0
    assert get_team(ada.org_id, crew).spaces == 0
    assert get_member(beta.org_id, both.user_id).spaces == 1
    # Bo reads the space in Beta through his kept grant (Beta's read role would do too), and edits it.
    assert api.get(f"/spaces/{space}", token=both.token).json()["permissions"]["edit"] is True


def test_an_in_collection_space_becomes_private_at_the_top_level(api):
    ada, beta = two_orgs(api)
    holder = new_collection(api, ada, "Holder")
    space = space_in(api, ada, holder)
    seen = space_store.get_space(space)
    table.transact([space_store.update_space_op(seen, replace(seen, visibility="in-collection"))])
    assert transferred(api, ada, "space", space, beta.org_id)["visibility"] == "private"
    assert space_store.get_space(space).visibility == "private"


# --- refusals -----------------------------------------------------------------------------------
def test_the_same_organization_is_409(api):
    ada = api.org_admin()
    space = space_in(api, ada)
    assert "would not change anything" in error(transfer(api, ada, "space", space, ada.org_id), 409)


def test_the_caller_must_be_an_admin_of_both(api):
    ada, beta = two_orgs(api)
    stranger = api.org_admin("Sam", "Solo")
    space = space_in(api, ada)
    assert error(transfer(api, ada, "space", space, stranger.org_id), 404) == "No matching organization"
    assert error(transfer(api, ada, "space", space, "nope"), 404) == "No matching organization"
    cole = join(api, ada.org_id, "Cole", "create")
    api.post(f"/orgs/{beta.org_id}/invites", token=beta.token, body={"emails": ["cole@example.com"],
                                                                       "role": "admin"})
    give("space", space, "user", cole.user_id, "admin")
    # Admin of the space and of Beta, but not of Acme.
    reply = transfer(api, cole, "space", space, beta.org_id)
    assert "admin of the organization that owns" in error(reply, 403)
    rita = join(api, beta.org_id, "Rita", "create")
    api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={"emails": ["rita@example.com"],
                                                                     "role": "admin"})
    assert "admin of the target" in error(transfer(api, rita, "space", space, beta.org_id), 403)
    assert space_store.get_space(space).org_id == ada.org_id


def test_unknown_foreign_and_deleted_content_is_404(api):
    ada, beta = two_orgs(api)
    space = space_in(api, ada)
    api.delete(f"/spaces/{space}", token=ada.token)
    assert error(transfer(api, ada, "space", space, beta.org_id), 404) == "No matching space"
    assert error(transfer(api, ada, "collection", "nope", beta.org_id), 404) == "No matching collection"
    sam = api.org_admin("Sam", "Solo")
    theirs = new_collection(api, sam, "Theirs")
    assert error(transfer(api, ada, "collection", theirs, beta.org_id), 404) == "No matching collection"


@pytest.mark.parametrize(("body", "named"), [
    ({}, "organization"), ({"organization": ""}, "organization"), ({"organization": 5}, "organization"),
])
def test_bad_transfer_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    space = space_in(api, ada)
    assert named in error(api.post(f"/spaces/{space}/transfer", token=ada.token, body=body), 400)


def test_more_than_a_transaction_holds_is_412_and_changes_nothing(api):
    ada, beta = two_orgs(api)
    big = new_collection(api, ada, "Big")
    now = now_iso()
    inside = [Collection(id=new_id(), org_id=ada.org_id, created_at=now, updated_at=now,
                         position=f"V{index:03d}", parent=big, ancestors=[big], title=f"C{index}")
              for index in range(97)]
    for start in range(0, 97, 33):
        table.transact([table.put_op(c.to_item()) for c in inside[start:start + 33]])
    # 98 items and the two organizations' counters fit in one transaction of 100 ...
    assert transfer(api, ada, "collection", big, beta.org_id).status == 200
    assert stored(inside[-1].id).org_id == beta.org_id
    # ... one grant more (its item moves too) does not.
    give("collection", big, "user", ada.user_id, "admin")
    message = error(transfer(api, ada, "collection", big, ada.org_id), 412)
    assert "at most 100 items" in message
    assert stored(big).org_id == beta.org_id
    assert stored(inside[0].id).org_id == beta.org_id
    assert order(beta.org_id) == [big]


def test_a_transfer_costs_one_transaction(api, request_counter):
    ada, beta = two_orgs(api)
    holder = new_collection(api, ada, "Holder")
    space_in(api, ada, holder)
    request_counter.clear()
    transferred(api, ada, "collection", holder, beta.org_id)
    assert request_counter["TransactWriteItems"] == 1
    assert "Scan" not in request_counter


def test_a_deleted_space_whose_collection_moved_away_restores_at_the_top_level(api):
    ada, beta = two_orgs(api)
    holder = new_collection(api, ada, "Holder")
    space = space_in(api, ada, holder)
    assert api.delete(f"/spaces/{space}", token=ada.token).status == 204
    transferred(api, ada, "collection", holder, beta.org_id)
    reply = api.post(f"/spaces/{space}/restore", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert body["organization"] == ada.org_id
    assert "parent" not in body
    assert order(ada.org_id) == [space]


def test_change_requests_follow_their_space_to_the_other_organization(api):
    from tests.api.change_requests.test_change_requests import new_cr

    ada, beta = two_orgs(api)
    holder = new_collection(api, ada, "Docs")
    space = space_in(api, ada, holder, "Guide")
    opened, drafted = new_cr(api, ada, space)["id"], new_cr(api, ada, space)["id"]
    api.patch(f"/spaces/{space}/change-requests/{drafted}", token=ada.token, body={"status": "draft"})
    transferred(api, ada, "collection", holder, beta.org_id)

    def crs(org_id, status):
        reply = api.get(f"/orgs/{org_id}/change-requests", token=ada.token, query={"status": status})
        assert reply.status == 200, reply.body
        return [item["id"] for item in reply.json()["items"]]

    assert (crs(beta.org_id, "open"), crs(beta.org_id, "draft")) == ([opened], [drafted])
    assert (crs(ada.org_id, "open"), crs(ada.org_id, "draft")) == ([], [])
    # a later status change files it under the new organization's listing for that status
    reply = api.patch(f"/spaces/{space}/change-requests/{opened}", token=ada.token,
                      body={"status": "archived"})
    assert reply.status == 200, reply.body
    assert crs(beta.org_id, "archived") == [opened]
    assert crs(ada.org_id, "archived") == []
    # Bea, the other organization's admin, now sees them too
    reply = api.get(f"/orgs/{beta.org_id}/change-requests", token=beta.token, query={"status": "draft"})
    assert [item["id"] for item in reply.json()["items"]] == [drafted]


def test_a_transfer_cut_short_is_finished_by_the_next_change_request_read(api, monkeypatch):
    from bindery.domain import transfers
    from tests.api.change_requests.test_change_requests import new_cr

    ada, beta = two_orgs(api)
    space = space_in(api, ada, None, "Guide")
    first, second = new_cr(api, ada, space)["id"], new_cr(api, ada, space)["id"]
    with monkeypatch.context() as patched:  # the function dies between the transaction and the follow-up
        patched.setattr(transfers.cr_store, "move_to_org", lambda *_: 0)
        transferred(api, ada, "space", space, beta.org_id)
    listed = api.get(f"/orgs/{beta.org_id}/change-requests", token=beta.token).json()["items"]
    assert listed == []
    assert api.get(f"/spaces/{space}/change-requests/{first}", token=beta.token).status == 200
    listed = api.get(f"/orgs/{beta.org_id}/change-requests", token=beta.token).json()["items"]
    assert sorted(item["id"] for item in listed) == sorted([first, second])  # all of the space's
    assert api.get(f"/orgs/{ada.org_id}/change-requests", token=ada.token).json()["items"] == []
