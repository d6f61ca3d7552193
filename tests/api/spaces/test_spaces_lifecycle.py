"""DELETE /spaces/{spaceId}, POST …/restore (7-day window, moved clock) and POST …/duplicate."""

from __future__ import annotations

import time

from bindery import keys
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store.members import get_member
from tests.api.members.test_members import error, join, team
from tests.api.spaces.test_spaces import give, listed_ids, new_collection, new_space, raw_space

DAY = 24 * 3600


def counters(org_id, user_id=None, team_id=None):
    if user_id:
        return get_member(org_id, user_id).spaces
    return team_store.get_team(org_id, team_id).spaces


# --- delete -----------------------------------------------------------------------------------
def test_delete_hides_the_space_and_starts_its_ttl(api):
    ada = api.org_admin()
    kept = new_space(api, ada, title="Kept")["id"]
    sid = new_space(api, ada, title="Gone")["id"]
    started = int(time.time())
    reply = api.delete(f"/spaces/{sid}", token=ada.token)
    assert (reply.status, reply.body) == (204, b"")
    assert error(api.get(f"/spaces/{sid}", token=ada.token), 404) == "No matching space"
    assert listed_ids(api, ada) == [kept]
    # The item stays, marked, with its TTL 7 days out, and out of every index.
    item = raw_space(sid)
    assert item["deletedAt"]
    assert started + 7 * DAY <= int(item["expiresAt"]) <= int(time.time()) + 7 * DAY
    assert not {"GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"} & set(item)
    assert error(api.patch(f"/spaces/{sid}", token=ada.token, body={"title": "X"}), 404)


def test_deleting_again_unknown_or_hidden_spaces_is_204_and_changes_nothing(api):
    ada = api.org_admin()
    sid = new_space(api, ada)["id"]
    olga = api.org_admin("Olga", "Other")
    assert api.delete(f"/spaces/{sid}", token=olga.token).status == 204
    assert api.get(f"/spaces/{sid}", token=ada.token).status == 200
    assert api.delete("/spaces/never-existed", token=ada.token).status == 204
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    deleted_at = raw_space(sid)["deletedAt"]
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    assert raw_space(sid)["deletedAt"] == deleted_at


def test_only_space_admins_delete(api):
    ada = api.org_admin()
    sid = new_space(api, ada)["id"]
    cat = join(api, ada.org_id, "Cat", "create")
    assert "admin role" in error(api.delete(f"/spaces/{sid}", token=cat.token), 403)
    assert api.get(f"/spaces/{sid}", token=ada.token).status == 200
    give("space", sid, "user", cat.user_id, "admin")
    assert api.delete(f"/spaces/{sid}", token=cat.token).status == 204
    assert api.get(f"/spaces/{sid}", token=ada.token).status == 404


# --- restore ----------------------------------------------------------------------------------
def test_restore_within_seven_days_brings_the_space_back_where_it_was(api, monkeypatch):
    ada = api.org_admin()
    guides = new_collection(ada.org_id)
    first = new_space(api, ada, title="First", parent=guides)["id"]
    middle = new_space(api, ada, title="Middle", parent=guides, emoji="📘")
    last = new_space(api, ada, title="Last", parent=guides)["id"]
    position = space_store.get_space(middle["id"]).position
    assert api.delete(f"/spaces/{middle['id']}", token=ada.token).status == 204
    monkeypatch.setenv("BINDERY_CLOCK_OFFSET_SECONDS", str(6 * DAY))
    reply = api.post(f"/spaces/{middle['id']}/restore", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert "deletedAt" not in body
    assert body["updatedAt"] > middle["updatedAt"]
    assert {k: v for k, v in body.items() if k != "updatedAt"} == {
        k: v for k, v in middle.items() if k != "updatedAt"}
    assert api.get(f"/spaces/{middle['id']}", token=ada.token).json() == body
    restored = space_store.get_space(middle["id"])
    assert (restored.position, restored.parent, restored.deleted_at, restored.expires_at) == (
        position, guides, None, None)
    assert listed_ids(api, ada) == [first, middle["id"], last]
    children = table.Query(partition=keys.children_partition(ada.org_id, guides), index="GSI2").run()
    assert [item["id"] for item in children.items] == [first, middle["id"], last]


def test_after_seven_days_the_space_is_gone_even_before_dynamodb_removes_it(api, monkeypatch):
    ada = api.org_admin()
    sid = new_space(api, ada)["id"]
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    monkeypatch.setenv("BINDERY_CLOCK_OFFSET_SECONDS", str(8 * DAY))
    assert error(api.post(f"/spaces/{sid}/restore", token=ada.token), 404) == "No matching space"
    assert error(api.get(f"/spaces/{sid}", token=ada.token), 404) == "No matching space"
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    assert raw_space(sid) is not None  # still stored: only the reads say it is gone


def test_who_may_restore(api):
    ada = api.org_admin()
    sid = new_space(api, ada)["id"]
    bob = join(api, ada.org_id, "Bob", "edit")
    olga = api.org_admin("Olga", "Other")
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    assert "admin role" in error(api.post(f"/spaces/{sid}/restore", token=bob.token), 403)
    assert error(api.post(f"/spaces/{sid}/restore", token=olga.token), 404)
    assert error(api.post("/spaces/nope/restore", token=ada.token), 404)
    assert api.get(f"/spaces/{sid}", token=ada.token).status == 404


def test_restoring_a_live_space_answers_it_unchanged(api):
    ada = api.org_admin()
    body = new_space(api, ada)
    reply = api.post(f"/spaces/{body['id']}/restore", token=ada.token)
    assert (reply.status, reply.json()) == (200, body)
    bob = join(api, ada.org_id, "Bob", "read")
    assert error(api.post(f"/spaces/{body['id']}/restore", token=bob.token), 403)


def test_a_space_whose_collection_went_away_is_restored_at_the_top_level(api):
    ada = api.org_admin()
    guides = new_collection(ada.org_id)
    top = new_space(api, ada, title="Top")["id"]
    sid = new_space(api, ada, parent=guides)["id"]
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    table.transact([table.delete_op(keys.collection(guides))])
    body = api.post(f"/spaces/{sid}/restore", token=ada.token).json()
    assert "parent" not in body
    restored = space_store.get_space(sid)
    assert (restored.parent, restored.ancestors) == (None, [])
    assert restored.position > space_store.get_space(top).position


def test_delete_and_restore_move_the_grant_counters(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    writers = team(api, ada, "Writers")
    sid = new_space(api, ada)["id"]
    give("space", sid, "user", bob.user_id, "edit")
    give("space", sid, "team", writers, "comment")
    assert (counters(ada.org_id, bob.user_id), counters(ada.org_id, team_id=writers)) == (1, 1)
    assert api.delete(f"/spaces/{sid}", token=ada.token).status == 204
    assert (counters(ada.org_id, bob.user_id), counters(ada.org_id, team_id=writers)) == (0, 0)
    assert api.post(f"/spaces/{sid}/restore", token=ada.token).status == 200
    assert (counters(ada.org_id, bob.user_id), counters(ada.org_id, team_id=writers)) == (1, 1)
    # The grants themselves were kept while the space was deleted.
    assert api.get(f"/spaces/{sid}", token=bob.token).json()["permissions"]["edit"] is True


# --- duplicate --------------------------------------------------------------------------------
def test_duplicate_copies_settings_grants_and_content_next_to_the_original(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    guides = new_collection(ada.org_id)
    original = new_space(api, ada, title="Handbook", emoji="📘", parent=guides, language="fr")
    after = new_space(api, ada, title="After", parent=guides)["id"]
    sid = original["id"]
    rules = {"type": "rules", "rules": [{"rule": "require_specific_reviewers", "users": [bob.user_id]}]}
    original = api.patch(f"/spaces/{sid}", token=ada.token,
                         body={"editMode": "locked", "defaultLevel": "comment", "mergeRules": rules}).json()
    give("space", sid, "user", bob.user_id, "review")
    page = {"id": "p1", "title": "Welcome", "kind": "sheet", "type": "document"}
    table.transact([table.update_op(keys.revision(sid, original["revision"]), "SET pages = :p",
                                    {":p": [page]})])
    table.transact([table.update_op(keys.space(sid), "ADD comments :n", {":n": 3})])
    original = api.get(f"/spaces/{sid}", token=ada.token).json()

    reply = api.post(f"/spaces/{sid}/duplicate", token=ada.token)
    assert reply.status == 201, reply.body
    copy = reply.json()
    assert copy["id"] != sid
    assert copy["revision"] != original["revision"]
    assert copy["title"] == "Handbook (copy)"
    for field in ("emoji", "visibility", "editMode", "mergeRules", "defaultLevel", "language", "parent",
                  "organization", "permissions"):
        assert copy[field] == original[field], field
    assert (copy["comments"], copy["changeRequests"]) == (0, 0)
    assert api.get(f"/spaces/{copy['id']}", token=ada.token).json() == copy
    # Grants (map, item and counter) and the current content come along; the copy has no history.
    stored = space_store.get_space(copy["id"])
    assert stored.grants == {f"user:{bob.user_id}": "review"}
    assert table.get(keys.grant("space", copy["id"], "user", bob.user_id))["role"] == "review"
    assert get_member(ada.org_id, bob.user_id).spaces == 2
    revision = space_store.get_revision(copy["id"], copy["revision"])
    assert (revision["pages"], revision["parents"], revision["spaceId"]) == ([page], [], copy["id"])
    # Right after the original among its siblings; the original is untouched.
    children = table.Query(partition=keys.children_partition(ada.org_id, guides), index="GSI2").run()
    assert [item["id"] for item in children.items] == [sid, copy["id"], after]
    assert api.get(f"/spaces/{sid}", token=ada.token).json() == original


def test_duplicate_of_the_last_sibling_goes_last_and_long_titles_keep_the_suffix(api):
    ada = api.org_admin()
    first = new_space(api, ada, title="x" * 50)["id"]
    copy = api.post(f"/spaces/{first}/duplicate", token=ada.token).json()
    assert copy["title"] == "x" * 43 + " (copy)"
    assert len(copy["title"]) == 50
    assert space_store.get_space(copy["id"]).position > space_store.get_space(first).position
    again = api.post(f"/spaces/{first}/duplicate", token=ada.token).json()
    order = table.Query(partition=keys.children_partition(ada.org_id, None), index="GSI2").run()
    assert [item["id"] for item in order.items] == [first, again["id"], copy["id"]]


def test_who_may_duplicate(api):
    ada = api.org_admin()
    sid = new_space(api, ada)["id"]
    guides = new_collection(ada.org_id)
    inner = new_space(api, ada, parent=guides)["id"]
    bob = join(api, ada.org_id, "Bob", "read")
    give("space", sid, "user", bob.user_id, "admin")
    # Admin of the space, but only a reader where it lives: creating a space there is not theirs.
    assert "create role" in error(api.post(f"/spaces/{sid}/duplicate", token=bob.token), 403)
    give("collection", guides, "user", bob.user_id, "create")
    assert api.post(f"/spaces/{inner}/duplicate", token=bob.token).status == 201
    cat = join(api, ada.org_id, "Cat", "create")
    assert api.post(f"/spaces/{sid}/duplicate", token=cat.token).status == 201
    olga = api.org_admin("Olga", "Other")
    assert error(api.post(f"/spaces/{sid}/duplicate", token=olga.token), 404)
    assert error(api.post("/spaces/nope/duplicate", token=ada.token), 404)
    assert len(listed_ids(api, ada)) == 4
