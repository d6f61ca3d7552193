"""`editMode: locked` locks all edits (API.md, States): no change request is created, edited, updated or
merged while the space is locked; reads, comments, reviews and the change request's own fields still
change. Unlocking gives everything back."""

from __future__ import annotations

from bindery.store import change_requests as cr_store
from tests.api.change_requests.test_change_request_content import edit
from tests.api.change_requests.test_change_request_merges import cr_path, setup  # noqa: F401 - the fixture
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.content.test_content_reads import publish as publish_space
from tests.api.content.test_content_reads import stored_tree
from tests.api.members.test_members import error, join


def lock(api, who, space_id, mode="locked"):
    reply = api.patch(f"/spaces/{space_id}", token=who.token, body={"editMode": mode})
    assert reply.status == 200, reply.body


def test_a_locked_space_refuses_every_change_request_edit(api, setup):  # noqa: F811
    ada, space_id = setup
    rae = join(api, ada.org_id, "Rae", "review")
    cr = new_cr(api, ada, space_id, subject="Before the lock")
    outdated = stored_tree(space_id)
    outdated["pages"][0]["title"] = "Moved on"
    publish_space(space_id, outdated)  # the change request is now behind the space
    lock(api, ada, space_id)
    before = cr_store.get_change_request(space_id, cr["id"])

    created = api.post(f"/spaces/{space_id}/change-requests", token=ada.token, body={"subject": "New"})
    assert "locked" in error(created, 403)
    edited = edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p1", "title": "X"})
    assert "locked" in error(edited, 403)
    assert "locked" in error(api.post(cr_path(space_id, cr) + "/update", token=ada.token), 403)
    assert "locked" in error(api.post(cr_path(space_id, cr) + "/merge", token=ada.token), 403)
    after = cr_store.get_change_request(space_id, cr["id"])
    assert (after.revision, after.status, after.number) == (before.revision, "open", 1)
    listed = api.get(f"/spaces/{space_id}/change-requests", token=ada.token).json()["items"]
    assert [item["id"] for item in listed] == [cr["id"]]

    # Reads, comments, reviews and the change request's own fields still work.
    assert api.get(cr_path(space_id, cr), token=ada.token).status == 200
    assert api.get(cr_path(space_id, cr) + "/content/pages", token=ada.token).status == 200
    comment = api.post(cr_path(space_id, cr) + "/comments", token=ada.token,
                       body={"body": {"markdown": "hm"}})
    assert comment.status == 200, comment.body
    review = api.post(cr_path(space_id, cr) + "/reviews", token=rae.token, body={"status": "approved"})
    assert review.status in (200, 201), review.body
    renamed = api.patch(cr_path(space_id, cr), token=ada.token, body={"subject": "Renamed"})
    assert renamed.status == 200, renamed.body


def test_unlocking_gives_the_edits_back(api, setup):  # noqa: F811
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    lock(api, ada, space_id)
    rename = {"operation": "update_page", "page": "p1", "title": "X"}
    assert "locked" in error(edit(api, ada, space_id, cr["id"], rename), 403)
    lock(api, ada, space_id, "live")
    assert edit(api, ada, space_id, cr["id"], rename).status == 200
    assert new_cr(api, ada, space_id)["number"] == 2
    assert api.post(cr_path(space_id, cr) + "/merge", token=ada.token).status == 200
