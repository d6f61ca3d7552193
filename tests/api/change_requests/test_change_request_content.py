"""A change request's content: read like a space's (on the change request's revision) and edited with
`POST CR/content` batches (one new revision per batch, all or nothing)."""

from __future__ import annotations

import base64

import pytest

from bindery.domain.change_requests import edits
from bindery.store import change_requests as cr_store
from bindery.store import spaces as space_store
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import new_space


@pytest.fixture
def setup(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    publish(space_id, tree(page("p1", "Intro", page("p2", "Details")), page("p3", "Outro")),
            {"p1": doc("Hello"), "p2": doc("Deep"), "p3": doc("Bye")})
    cr = new_cr(api, ada, space_id, subject="Edits")
    return ada, space_id, cr


def edit(api, who, space_id, cr_id, *changes, compat=None):
    return api.post(f"/spaces/{space_id}/change-requests/{cr_id}/content", token=who.token,
                    body={"changes": list(changes)}, query={"compat": compat})


def titles(api, who, space_id, cr_id):
    path = f"/spaces/{space_id}/change-requests/{cr_id}/content/pages"
    pages = api.get(path, token=who.token).json()["pages"]

    def walk(entries):
        return [(p["title"], walk(p.get("pages", []))) if p.get("pages") else p["title"] for p in entries]
    return walk(pages)


def text_of(page_body):
    return [leaf["text"] for block in page_body["document"]["nodes"] for node in block.get("nodes", [])
            for leaf in node.get("leaves", [])]


def test_reads_serve_the_change_request_revision(api, setup):
    ada, space_id, cr = setup
    base = f"/spaces/{space_id}/change-requests/{cr['id']}/content"
    revision = api.get(base, token=ada.token)
    assert revision.status == 200, revision.body
    assert revision.json()["id"] == cr["revision"]
    assert api.get(base + "/page/p2", token=ada.token).json()["path"] == "intro/details"
    assert text_of(api.get(base + "/path/intro/details", token=ada.token).json()) == ["Deep"]
    assert api.get(base + "/files", token=ada.token).json() == {"items": [], "count": 0}
    error(api.get(base + "/page/nope", token=ada.token), 404)
    error(api.get(f"/spaces/{space_id}/change-requests/nope/content", token=ada.token), 404)
    # By number too.
    by_number = api.get(f"/spaces/{space_id}/change-requests/1/content", token=ada.token)
    assert by_number.json()["id"] == cr["revision"]
    stranger = api.org_admin("Sam", "Other")
    error(api.get(base, token=stranger.token), 404)
    error(api.get(f"/spaces/{space_id}/change-requests/nope/content", token=stranger.token), 404)


def test_a_batch_is_one_new_revision_and_leaves_the_space_alone(api, setup):
    ada, space_id, cr = setup
    space_revision = space_store.get_space(space_id).revision
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "insert_page", "document": {"markdown": "# New page\n\nFresh text.\n"},
                  "into": "p1", "ref": "new"},
                 {"operation": "update_page", "page": "p3", "title": "Ending",
                  "document": {"markdown": "Changed [see](./new.md)."}},
                 {"operation": "update_page", "page": "p2", "into": None, "at": 0},
                 compat=False)
    assert reply.status == 200, reply.body
    body = reply.json()
    changed = body["changeRequest"]
    assert changed["revision"] != cr["revision"]
    assert changed["revisionInitial"] == cr["revisionInitial"]
    kinds = [(c["object"], c.get("ref")) for c in body["changes"]]
    assert kinds == [("created_page", "new"), ("updated_page", None), ("updated_page", None)]
    new_id = body["changes"][0]["page"]["id"]
    assert titles(api, ada, space_id, cr["id"]) == ["Details", ("Intro", ["New page"]), "Ending"]
    base = f"/spaces/{space_id}/change-requests/{cr['id']}/content"
    created = api.get(f"{base}/page/{new_id}", token=ada.token).json()
    assert (created["slug"], text_of(created)) == ("new-page", ["Fresh text."])
    ending = api.get(f"{base}/page/p3", token=ada.token).json()
    link = ending["document"]["nodes"][0]["nodes"][1]
    assert link["data"]["ref"] == {"kind": "page", "page": new_id}
    # One revision, parented on the change request's previous one; the space did not move.
    revision = api.get(base, token=ada.token).json()
    assert revision["parents"] == [cr["revision"]]
    assert space_store.get_space(space_id).revision == space_revision
    assert api.get(f"/spaces/{space_id}/content/pages", token=ada.token).json()["pages"][0]["id"] == "p1"
    # The editor is a contributor.
    contributors = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/contributors", token=ada.token)
    assert [(c["user"]["id"], c["count"]) for c in contributors.json()["items"]] == [(ada.user_id, 1)]
    assert contributors.json()["count"] == 1


def test_an_invalid_change_rejects_the_whole_batch(api, setup):
    ada, space_id, cr = setup
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "insert_page", "title": "Kept?", "document": {}},
                 {"operation": "delete_page", "page": "missing"})
    assert "changes[1].page" in error(reply, 400)
    assert cr_store.get_change_request(space_id, cr["id"]).revision == cr["revision"]
    # Moving a page into its own subpage, and a slug collision, are refused too.
    assert "changes[0].into" in error(edit(api, ada, space_id, cr["id"],
                                           {"operation": "update_page", "page": "p1", "into": "p2"}), 400)
    assert "slug" in error(edit(api, ada, space_id, cr["id"],
                                {"operation": "insert_page", "slug": "outro", "document": {}}), 400)
    assert "changes" in error(edit(api, ada, space_id, cr["id"]), 400)
    assert "operation" in error(api.post(f"/spaces/{space_id}/change-requests/{cr['id']}/content",
                                         token=ada.token, body={"changes": [{"operation": "nope"}]}), 400)
    assert cr_store.get_change_request(space_id, cr["id"]).revision == cr["revision"]


def test_delete_revert_and_files(api, setup):
    ada, space_id, cr = setup
    png = base64.b64encode(b"\x89PNG tiny").decode()
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "delete_page", "page": "p1"},
                 {"operation": "insert_files", "files": [{"name": "a.png", "contentType": "image/png",
                                                          "base64": png, "ref": "a.png"}]},
                 {"operation": "insert_page", "title": "Pic", "document": {"markdown": "![A](./a.png)"}},
                 compat=False)
    assert reply.status == 200, reply.body
    inserted = reply.json()["insertedFiles"]
    assert [(f["name"], f["size"]) for f in inserted] == [("a.png", 9)]
    assert titles(api, ada, space_id, cr["id"]) == ["Outro", "Pic"]
    files = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/files", token=ada.token).json()
    assert [f["id"] for f in files["items"]] == [inserted[0]["id"]]
    reverted = edit(api, ada, space_id, cr["id"], {"operation": "revert_page", "page": "p1"})
    assert reverted.status == 200, reverted.body
    assert titles(api, ada, space_id, cr["id"]) == ["Outro", "Pic", ("Intro", ["Details"])]
    bad = edit(api, ada, space_id, cr["id"],
               {"operation": "insert_files", "files": [{"name": "x", "contentType": "text/plain",
                                                        "base64": "***"}]})
    assert "changes[0].files[0].base64" in error(bad, 400)


def test_only_editors_edit_and_only_open_change_requests(api, setup):
    ada, space_id, cr = setup
    commenter = join(api, ada.org_id, "Cy", "comment")
    change = {"operation": "delete_page", "page": "p3"}
    error(edit(api, commenter, space_id, cr["id"], change), 403)
    api.patch(f"/spaces/{space_id}/change-requests/{cr['id']}", token=ada.token, body={"status": "archived"})
    error(edit(api, ada, space_id, cr["id"], change), 409)


def test_concurrent_batches_both_land(api, setup, monkeypatch):
    """A batch whose change request moved meanwhile is applied again on top: neither edit is lost."""
    ada, space_id, cr = setup
    original = edits.advance
    calls = []

    def racing(change_request, new_revision, caller):
        if not calls:  # before the first advance, another batch lands
            calls.append(1)
            other = edit(api, ada, space_id, cr["id"], {"operation": "delete_page", "page": "p3"})
            assert other.status == 200
        return original(change_request, new_revision, caller)

    monkeypatch.setattr(edits, "advance", racing)
    reply = edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p1", "title": "Hi"})
    assert reply.status == 200, reply.body
    assert titles(api, ada, space_id, cr["id"]) == [("Hi", ["Details"])]
    contributors = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/contributors", token=ada.token)
    assert contributors.json()["items"][0]["count"] == 2
