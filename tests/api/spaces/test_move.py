"""Moving spaces and collections (POST /spaces/{spaceId}/move, POST /collections/{collectionId}/move)
through API Gateway events."""

from __future__ import annotations

import pytest

from bindery.platform.clock import now_iso
from bindery.platform.ids import new_id
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store.collections import Collection
from tests.api.members.test_members import error, join
from tests.api.spaces.test_collections import listed, new_collection, order, space_in, stored
from tests.api.spaces.test_spaces import give


def move(api, who, kind, node_id, **body):
    return api.post(f"/{kind}s/{node_id}/move", token=who.token, body=body)


def moved(api, who, kind, node_id, **body):
    reply = move(api, who, kind, node_id, **body)
    assert reply.status == 200, reply.body
    return reply.json()


def at(kind, node_id):
    return {"type": kind, kind: node_id}


# --- reordering ---------------------------------------------------------------------------------
def test_reorder_before_after_between_and_to_the_end(api):
    ada = api.org_admin()
    a, b, c = (space_in(api, ada, None, title) for title in "ABC")
    d = new_collection(api, ada, "D")
    body = moved(api, ada, "space", c, position={"before": at("space", a)})
    assert (body["object"], body["id"]) == ("space", c)
    assert "parent" not in body
    assert order(ada.org_id) == [c, a, b, d]
    moved(api, ada, "collection", d, position={"after": at("space", c)})
    assert order(ada.org_id) == [c, d, a, b]
    moved(api, ada, "space", b, position={"after": at("space", c), "before": at("collection", d)})
    assert order(ada.org_id) == [c, b, d, a]
    moved(api, ada, "space", c, position={})
    assert order(ada.org_id) == [b, d, a, c]
    moved(api, ada, "collection", d, parent=None)
    assert order(ada.org_id) == [b, a, c, d]


def test_listings_honour_the_new_order_at_once(api):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    first, second, third = (space_in(api, ada, holder, title) for title in "123")
    x, y = new_collection(api, ada, "X"), new_collection(api, ada, "Y")
    moved(api, ada, "space", third, position={"before": at("space", first)})
    assert listed(api, ada, f"/collections/{holder}/spaces") == [third, first, second]
    moved(api, ada, "collection", y, position={"before": at("collection", holder)})
    assert listed(api, ada, f"/orgs/{ada.org_id}/collections", nested="false") == [y, holder, x]


def test_many_moves_into_the_same_gap_keep_a_strict_order(api):
    ada = api.org_admin()
    a, b = space_in(api, ada), space_in(api, ada)
    extra = [space_in(api, ada) for _ in range(12)]
    for item in extra:
        moved(api, ada, "space", item, position={"before": at("space", b)})
    assert order(ada.org_id) == [a, *extra, b]


def test_moving_between_siblings_that_share_a_position(api):
    """Two siblings created at the same instant can share a position (their ids order them)."""
    ada = api.org_admin()
    a = space_in(api, ada)
    twin = space_store.get_space(a)
    now = now_iso()
    b = Collection(id=new_id(), org_id=ada.org_id, created_at=now, updated_at=now, position=twin.position,
                   title="Twin")
    table.transact([table.put_op(b.to_item())])
    c = space_in(api, ada)
    assert order(ada.org_id) == [a, b.id, c]
    moved(api, ada, "space", c, position={"after": at("space", a)})
    assert order(ada.org_id) == [a, c, b.id]
    assert len({item.position for item in space_store.get_spaces([a, c]).values()}
               | {stored(b.id).position}) == 3


# --- changing parent ----------------------------------------------------------------------------
def test_move_a_space_into_and_out_of_a_collection(api):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    inside = space_in(api, ada, holder)
    loose = space_in(api, ada)
    body = moved(api, ada, "space", loose, parent=holder)
    assert body["parent"] == holder
    assert order(ada.org_id, holder) == [inside, loose]
    assert order(ada.org_id) == [holder]
    assert space_store.get_space(loose).ancestors == [holder]
    assert api.get(f"/spaces/{loose}", token=ada.token).json()["parent"] == holder
    moved(api, ada, "space", loose, parent=holder, position={"before": at("space", inside)})
    assert order(ada.org_id, holder) == [loose, inside]
    body = moved(api, ada, "space", loose, parent=None)
    assert "parent" not in body
    assert space_store.get_space(loose).ancestors == []
    assert order(ada.org_id) == [holder, loose]


def test_moving_a_collection_rewrites_the_path_of_everything_inside(api):
    ada = api.org_admin()
    top = new_collection(api, ada, "Top")
    branch = new_collection(api, ada, "Branch")
    leaf = new_collection(api, ada, "Leaf", branch)
    deep_space = space_in(api, ada, leaf)
    near_space = space_in(api, ada, branch)
    body = moved(api, ada, "collection", branch, parent=top)
    assert body["parent"] == top
    assert stored(branch).ancestors == [top]
    assert stored(leaf).ancestors == [branch, top]
    assert space_store.get_space(deep_space).ancestors == [leaf, branch, top]
    assert space_store.get_space(near_space).ancestors == [branch, top]
    moved(api, ada, "collection", branch, parent=None)
    assert space_store.get_space(deep_space).ancestors == [leaf, branch]


def test_access_follows_the_new_place(api):
    """The path rewrite is what access checks read: content moved under a private collection becomes
    private, and comes back into view when moved out."""
    ada = api.org_admin()
    rita = join(api, ada.org_id, "Rita", "read")
    private = new_collection(api, ada, "Private")
    api.patch(f"/collections/{private}", token=ada.token, body={"defaultLevel": None})
    branch = new_collection(api, ada, "Branch")
    deep = space_in(api, ada, new_collection(api, ada, "Leaf", branch))
    assert api.get(f"/spaces/{deep}", token=rita.token).status == 200
    moved(api, ada, "collection", branch, parent=private)
    assert error(api.get(f"/spaces/{deep}", token=rita.token), 404)
    moved(api, ada, "collection", branch, parent=None)
    assert api.get(f"/spaces/{deep}", token=rita.token).status == 200


def test_the_answer_shows_the_callers_role_in_the_new_place(api):
    ada = api.org_admin()
    cole = join(api, ada.org_id, "Cole", "create")
    space = space_in(api, ada)
    give("space", space, "user", cole.user_id, "admin")
    readonly = new_collection(api, ada, "Read only")
    api.patch(f"/collections/{readonly}", token=ada.token, body={"defaultLevel": "read"})
    give("collection", readonly, "user", cole.user_id, "create")
    body = moved(api, cole, "space", space, parent=readonly)
    assert body["permissions"]["admin"] is True  # his grant on the space
    assert body["parent"] == readonly


# --- refusals -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("body", "named"), [
    ({}, "send parent, position or both"), ({"position": None}, "position"),
    ({"position": {"before": {"type": "page", "page": "x"}}}, "position.before"),
    ({"position": {"after": {"type": "space"}}}, "position.after"),
    ({"parent": 5}, "parent"),
])
def test_bad_move_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    space = space_in(api, ada)
    assert named in error(api.post(f"/spaces/{space}/move", token=ada.token, body=body), 400)


def test_unknown_or_foreign_parent_and_siblings_are_404(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    api.post(f"/orgs/{olga.org_id}/invites", token=olga.token, body={"emails": ["ada@example.com"],
                                                                         "role": "admin"})
    theirs = new_collection(api, olga, "Theirs")
    their_space = space_in(api, olga)
    space = space_in(api, ada)
    for body in ({"parent": "nope"}, {"parent": theirs}):
        assert error(move(api, ada, "space", space, **body), 404).startswith("No matching collection")
    for pointer in (at("space", "nope"), at("space", their_space), at("collection", theirs)):
        reply = move(api, ada, "space", space, position={"before": pointer})
        assert error(reply, 404).startswith("No matching")
    assert error(move(api, ada, "space", "nope", parent=None), 404) == "No matching space"
    assert error(move(api, ada, "collection", "nope", parent=None), 404) == "No matching collection"


def test_invalid_positions_are_400(api):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    inside = space_in(api, ada, holder)
    a, b, c = (space_in(api, ada) for _ in range(3))
    gone = space_in(api, ada)
    api.delete(f"/spaces/{gone}", token=ada.token)
    cases = [
        ({"position": {"before": at("space", inside)}}, "not in the destination"),
        ({"parent": holder, "position": {"after": at("space", b)}}, "not in the destination"),
        ({"position": {"before": at("space", a)}}, "being moved"),
        ({"position": {"after": at("space", c), "before": at("space", b)}}, "not next to each other"),
        ({"position": {"after": at("space", b), "before": at("collection", holder)}},
         "not next to each other"),
    ]
    for body, message in cases:
        assert message in error(move(api, ada, "space", a, **body), 400)
    reply = move(api, ada, "space", c, position={"after": at("space", b), "before": at("space", a)})
    assert "not next to each other" in error(reply, 400)
    assert error(move(api, ada, "space", a, position={"after": at("space", gone)}), 404)
    assert order(ada.org_id) == [holder, a, b, c]


def test_a_collection_cannot_go_into_itself_or_its_content(api):
    ada = api.org_admin()
    top = new_collection(api, ada, "Top")
    child = new_collection(api, ada, "Child", top)
    grandchild = new_collection(api, ada, "Grandchild", child)
    for parent in (top, child, grandchild):
        assert "into itself" in error(move(api, ada, "collection", top, parent=parent), 400)
    assert stored(top).parent is None
    assert stored(child).ancestors == [top]


def test_a_move_that_changes_nothing_is_409(api):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    a, b = space_in(api, ada, holder), space_in(api, ada, holder)
    seen = space_store.get_space(a)
    cases = [(a, {"parent": holder, "position": {"before": at("space", b)}}),
             (a, {"position": {"before": at("space", b)}}), (b, {"position": {"after": at("space", a)}}),
             (b, {"parent": holder}), (b, {"position": {}})]
    for node, body in cases:
        assert "would not change anything" in error(move(api, ada, "space", node, **body), 409)
    assert space_store.get_space(a) == seen


def test_who_may_move(api):
    ada = api.org_admin()
    cole = join(api, ada.org_id, "Cole", "create")
    rita = join(api, ada.org_id, "Rita", "read")
    holder = new_collection(api, ada, "Holder")
    space = space_in(api, ada)
    # `create` in the organization is not `admin` on the space.
    assert "admin role" in error(move(api, cole, "space", space, parent=holder), 403)
    # An admin of the space needs `create` where it lands.
    give("space", space, "user", rita.user_id, "admin")
    assert "create role in the destination" in error(move(api, rita, "space", space, parent=holder), 403)
    give("collection", holder, "user", rita.user_id, "create")
    moved(api, rita, "space", space, parent=holder)
    assert "create role in the organization" in error(move(api, rita, "space", space, parent=None), 403)
    hidden = space_in(api, ada)
    api.patch(f"/spaces/{hidden}", token=ada.token, body={"defaultLevel": None})
    assert error(move(api, rita, "space", hidden, parent=holder), 404)
    assert order(ada.org_id, holder) == [space]


def test_a_collection_holding_more_than_a_transaction_is_refused(api):
    ada = api.org_admin()
    big = new_collection(api, ada, "Big")
    target = new_collection(api, ada, "Target")
    now = now_iso()
    collections = [Collection(id=new_id(), org_id=ada.org_id, created_at=now, updated_at=now,
                              position=f"V{index:03d}", parent=big, ancestors=[big], title=f"C{index}")
                   for index in range(100)]
    for start in range(0, 100, 25):
        table.transact([table.put_op(c.to_item()) for c in collections[start:start + 25]])
    message = error(move(api, ada, "collection", big, parent=target), 400)
    assert "at most 100 items" in message
    assert stored(big).parent is None
    assert stored(collections[0].id).ancestors == [big]
    # Reordering it where it is rewrites nothing inside: allowed.
    moved(api, ada, "collection", big, position={"after": at("collection", target)})
    assert order(ada.org_id) == [target, big]


def test_a_move_costs_one_transaction(api, request_counter):
    ada = api.org_admin()
    holder = new_collection(api, ada, "Holder")
    space = space_in(api, ada)
    request_counter.clear()
    moved(api, ada, "space", space, parent=holder)
    assert request_counter["TransactWriteItems"] == 1
    assert "Scan" not in request_counter
