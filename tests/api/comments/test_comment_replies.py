"""Replies and commenters, on both targets (see tests/api/comments/test_comments.py for the `where`
fixture)."""

from __future__ import annotations

import pytest

from bindery.keys import comments as comment_keys
from bindery.store import comment_replies as reply_store
from tests.api.comments.test_comments import comment_target
from tests.api.members.test_members import error, join


@pytest.fixture(params=["space", "cr"])
def where(request, api):
    return comment_target(api, request.param)


def reply_to(where, who, comment_id, markdown="Agreed"):
    reply = where.api.post(f"{where.base}/comments/{comment_id}/replies", token=who.token,
                           body={"body": {"markdown": markdown}})
    assert reply.status == 200, reply.body
    return reply.json()


def comment(where, comment_id):
    return where.api.get(f"{where.base}/comments/{comment_id}", token=where.admin.token).json()


def test_replies_keep_the_comments_counts_exact(where, api):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    thread = where.post(where.admin)
    first = reply_to(where, bob, thread["id"], "one")
    assert first["object"] == "comment-reply"
    assert first["permissions"] == {"view": True, "edit": True, "reply": True, "delete": True}
    assert first["urls"]["location"].endswith(f"{where.base}/comments/{thread['id']}/replies/{first['id']}")
    reply_to(where, bob, thread["id"], "two")
    last = reply_to(where, where.admin, thread["id"], "three")
    read = comment(where, thread["id"])
    assert read["replies"] == 3
    assert [(r["user"]["id"], r["count"]) for r in read["repliers"]] == [
        (where.admin.user_id, 1), (bob.user_id, 2)]  # most recent first
    assert read["repliers"][0]["updatedAt"] == last["postedAt"]
    listed = api.get(f"{where.base}/comments/{thread['id']}/replies", token=bob.token, query={"limit": 2})
    body = listed.json()
    assert [r["body"]["markdown"] for r in body["items"]] == ["one", "two"]  # oldest first
    rest = api.get(f"{where.base}/comments/{thread['id']}/replies", token=bob.token,
                   query={"limit": 2, "page": body["next"]["page"], "format": "document"}).json()
    assert [r["id"] for r in rest["items"]] == [last["id"]]
    assert "next" not in rest
    assert (body["count"], rest["count"]) == (3, 3)
    assert rest["items"][0]["body"]["document"]["object"] == "document"
    assert api.delete(f"{where.base}/comments/{thread['id']}/replies/{last['id']}",
                      token=where.admin.token).status == 204
    assert api.delete(f"{where.base}/comments/{thread['id']}/replies/{last['id']}",
                      token=where.admin.token).status == 204
    read = comment(where, thread["id"])
    assert read["replies"] == 2
    assert api.get(f"{where.base}/comments/{thread['id']}/replies", token=bob.token).json()["count"] == 2
    assert [(r["user"]["id"], r["count"]) for r in read["repliers"]] == [(bob.user_id, 2)]


def test_a_reply_is_read_edited_and_reacted_to(where, api):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    reader = join(api, where.admin.org_id, "Rea", "read")
    thread = where.post(where.admin)
    reply = reply_to(where, bob, thread["id"])
    path = f"{where.base}/comments/{thread['id']}/replies/{reply['id']}"
    assert api.get(path, token=reader.token).json()["permissions"] == {
        "view": True, "edit": False, "reply": False, "delete": False}
    edited = api.put(path, token=bob.token, body={"body": {"markdown": "changed"},
                                                  "addedReactions": ["👀"]}).json()
    assert edited["body"] == {"markdown": "changed"}
    assert "editedAt" in edited
    assert [(r["emoji"], r["count"]) for r in edited["reactions"]] == [("👀", 1)]
    carol = join(api, where.admin.org_id, "Carol", "comment")
    assert "author" in error(api.put(path, token=carol.token, body={"body": {"markdown": "no"}}), 403)
    assert "author" in error(api.delete(path, token=carol.token), 403)
    assert "comment" in error(api.post(f"{where.base}/comments/{thread['id']}/replies", token=reader.token,
                                       body={"body": {"markdown": "x"}}), 403)
    error(api.get(f"{where.base}/comments/{thread['id']}/replies/nope", token=bob.token), 404)
    error(api.get(f"{where.base}/comments/nope/replies", token=bob.token), 404)
    error(api.post(f"{where.base}/comments/nope/replies", token=bob.token, body={"body": {"markdown": "x"}}),
          404)


def test_resolved_on_a_reply_resolves_the_thread_in_a_change_request_only(where, api):
    thread = where.post(where.admin)
    reply = reply_to(where, where.admin, thread["id"])
    path = f"{where.base}/comments/{thread['id']}/replies/{reply['id']}"
    answer = api.put(path, token=where.admin.token, body={"resolved": True})
    if where.kind == "space":
        assert "resolved" in error(answer, 400)
        assert comment(where, thread["id"])["status"] == "open"
        return
    assert answer.status == 200, answer.body
    assert comment(where, thread["id"])["status"] == "resolved"
    assert where.counter() == 0
    api.put(path, token=where.admin.token, body={"resolved": False})
    assert comment(where, thread["id"])["status"] == "open"
    assert where.counter() == 1


def test_deleting_a_comment_deletes_all_its_replies_even_past_one_transaction(where, api):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    thread, other = where.post(where.admin), where.post(bob)
    count = reply_store.REPLIES_PER_TRANSACTION * 2 + 3
    for n in range(count):
        reply_to(where, bob if n % 2 else where.admin, thread["id"], f"r{n}")
    reply_to(where, bob, other["id"])
    assert comment(where, thread["id"])["replies"] == count
    assert api.delete(f"{where.base}/comments/{thread['id']}", token=where.admin.token).status == 204
    error(api.get(f"{where.base}/comments/{thread['id']}", token=where.admin.token), 404)
    target = comment_keys.target(where.base.rsplit("/", 1)[1] if where.kind == "cr" else None)
    left = reply_store.replies_page(where.space_id, target, thread["id"], 1000, None)
    assert left.items == []
    assert comment(where, other["id"])["replies"] == 1
    assert where.counter() == 1
    # Ada took part only in the deleted thread; Bob still has a comment and a reply
    commenters = api.get(f"{where.base}/commenters", token=where.admin.token).json()["items"]
    assert [m["id"] for m in commenters] == [bob.user_id]


def test_commenters_lists_each_member_once_and_pages(where, api):
    people = [where.admin] + [join(api, where.admin.org_id, f"P{n}", "comment") for n in range(4)]
    thread = where.post(where.admin)
    for person in people:
        reply_to(where, person, thread["id"])
        reply_to(where, person, thread["id"])
    expected = sorted(person.user_id for person in people)
    seen, cursor = [], None
    while True:
        body = api.get(f"{where.base}/commenters", token=people[1].token,
                       query={"limit": 2, "page": cursor}).json()
        assert all(item["object"] == "member" for item in body["items"])
        seen += [item["id"] for item in body["items"]]
        cursor = body.get("next", {}).get("page")
        if not cursor:
            break
    assert seen == expected
    first = api.get(f"{where.base}/commenters", token=people[1].token, query={"limit": 2}).json()
    assert first["count"] == 5
    # Someone who left the organization is no longer listed, nor counted.
    assert api.delete(f"/orgs/{where.admin.org_id}/members/{people[2].user_id}",
                      token=where.admin.token).status == 204
    listed = []
    for_page = api.get(f"{where.base}/commenters", token=people[1].token, query={"limit": 2}).json()
    while True:
        listed += [item["id"] for item in for_page["items"]]
        assert for_page["count"] == 4
        if "next" not in for_page:
            break
        for_page = api.get(f"{where.base}/commenters", token=people[1].token,
                           query={"limit": 2, "page": for_page["next"]["page"]}).json()
    assert sorted(listed) == sorted(set(expected) - {people[2].user_id})


@pytest.mark.parametrize("variant", ["space", "cr"])
def test_unknown_comments_and_replies_delete_as_204(api, variant):
    ada = api.org_admin()
    space_id = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={}).json()["id"]
    base = f"/spaces/{space_id}"
    if variant == "cr":
        base += "/change-requests/" + api.post(f"{base}/change-requests", token=ada.token,
                                               body={"subject": "S"}).json()["id"]
    assert api.delete(f"{base}/comments/nope", token=ada.token).status == 204
    assert api.delete(f"{base}/comments/nope/replies/nope", token=ada.token).status == 204
