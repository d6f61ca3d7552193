"""Change-request comments, replies and commenters answer to the change request's number as well as its
id, as every other change-request route does (API.md: `changeRequestId` is the id or its number)."""

from __future__ import annotations

from tests.api.change_requests.test_change_requests import new_cr
from tests.api.members.test_members import error
from tests.api.spaces.test_spaces import new_space


def test_every_comment_route_takes_the_number(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    new_cr(api, ada, space_id, subject="First")
    cr = new_cr(api, ada, space_id, subject="Second")
    by_id = f"/spaces/{space_id}/change-requests/{cr['id']}"
    by_number = f"/spaces/{space_id}/change-requests/{cr['number']}"
    assert cr["number"] == 2

    posted = api.post(f"{by_number}/comments", token=ada.token, body={"body": {"markdown": "by number"}})
    assert posted.status == 200, posted.body
    comment_id = posted.json()["id"]
    for base in (by_id, by_number):
        listed = api.get(f"{base}/comments", token=ada.token)
        assert [c["id"] for c in listed.json()["items"]] == [comment_id]
        assert api.get(f"{base}/comments/{comment_id}", token=ada.token).json()["id"] == comment_id
    # Filed under the change request itself (its own counter), not under the first one or the space.
    assert api.get(by_id, token=ada.token).json()["comments"] == 1
    first = api.get(f"/spaces/{space_id}/change-requests/1/comments", token=ada.token).json()["items"]
    assert first == []
    assert api.get(f"/spaces/{space_id}/comments", token=ada.token).json()["items"] == []

    edited = api.put(f"{by_number}/comments/{comment_id}", token=ada.token, body={"body": {"markdown": "e"}})
    assert edited.status == 200, edited.body
    reply = api.post(f"{by_number}/comments/{comment_id}/replies", token=ada.token,
                     body={"body": {"markdown": "re"}})
    assert reply.status == 200, reply.body
    replies = api.get(f"{by_id}/comments/{comment_id}/replies", token=ada.token).json()["items"]
    assert [r["id"] for r in replies] == [reply.json()["id"]]
    reply_path = f"{by_number}/comments/{comment_id}/replies/{reply.json()['id']}"
    assert api.get(reply_path, token=ada.token).status == 200
    commenters = api.get(f"{by_number}/commenters", token=ada.token).json()["items"]
    assert [c["id"] for c in commenters] == [ada.user_id]
    assert api.delete(reply_path, token=ada.token).status == 204
    assert api.delete(f"{by_number}/comments/{comment_id}", token=ada.token).status == 204
    assert api.get(f"{by_id}/comments", token=ada.token).json()["items"] == []


def test_an_unknown_number_is_a_404(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    new_cr(api, ada, space_id)
    reply = api.get(f"/spaces/{space_id}/change-requests/7/comments", token=ada.token)
    assert "change request" in error(reply, 404)
