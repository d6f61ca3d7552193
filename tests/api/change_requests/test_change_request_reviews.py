"""Reviews and requested reviewers of a change request, and the listing filters they feed."""

from __future__ import annotations

import pytest

from tests.api.change_requests.test_change_requests import new_cr
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import new_space


@pytest.fixture
def setup(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    publish(space_id, tree(page("p1", "Intro")), {"p1": doc("Hello")})
    ed = join(api, ada.org_id, "Ed", "edit")
    rae = join(api, ada.org_id, "Rae", "review")
    cr = new_cr(api, ed, space_id, subject="Edits")
    return ada, ed, rae, space_id, cr


def base(space_id, cr):
    return f"/spaces/{space_id}/change-requests/{cr['id']}"


def test_request_review_then_approve(api, setup):
    _ada, ed, rae, space_id, cr = setup
    reply = api.post(base(space_id, cr) + "/requested-reviewers", token=ed.token,
                     body={"users": [rae.user_id], "subject": "Please look"})
    assert reply.status == 200, reply.body
    [request] = reply.json()["users"]
    assert (request["object"], request["kind"], request["user"]["id"]) == (
        "change-request-requested-reviewer", "user", rae.user_id)
    assert request["requestedBy"]["id"] == ed.user_id
    assert request["revision"] == cr["revision"]
    assert api.get(base(space_id, cr), token=ed.token).json()["subject"] == "Please look"
    listed = api.get(base(space_id, cr) + "/requested-reviewers", token=rae.token).json()
    assert ([r["user"]["id"] for r in listed["items"]], listed["count"]) == ([rae.user_id], 1)
    # The listing filter finds it by requested reviewer.
    mine = api.get(f"/spaces/{space_id}/change-requests", token=rae.token,
                   query={"requestedReviewer": rae.user_id}).json()["items"]
    assert [c["id"] for c in mine] == [cr["id"]]

    review = api.post(base(space_id, cr) + "/reviews", token=rae.token, body={"status": "approved"})
    assert review.status == 201, review.body
    body = review.json()
    assert (body["object"], body["status"], body["outdated"]) == ("change-request-review", "approved", False)
    assert body["reviewer"]["id"] == rae.user_id
    assert body["requestedBy"]["id"] == ed.user_id
    assert api.get(base(space_id, cr) + f"/reviews/{body['id']}", token=ed.token).json() == body
    # The request is fulfilled.
    assert api.get(base(space_id, cr) + "/requested-reviewers", token=rae.token).json() == {
        "items": [], "count": 0}
    error(api.get(base(space_id, cr) + "/reviews/nope", token=ed.token), 404)


def test_a_newer_review_or_request_makes_earlier_reviews_outdated(api, setup):
    _ada, ed, rae, space_id, cr = setup
    first = api.post(base(space_id, cr) + "/reviews", token=rae.token,
                     body={"status": "changes-requested"}).json()
    second = api.post(base(space_id, cr) + "/reviews", token=rae.token, body={"status": "approved"}).json()
    listed = api.get(base(space_id, cr) + "/reviews", token=ed.token, query={"limit": 1}).json()
    assert listed["count"] == 2  # every review, over all pages
    reviews = api.get(base(space_id, cr) + "/reviews", token=ed.token).json()["items"]
    assert [(r["id"], r["outdated"]) for r in reviews] == [(second["id"], False), (first["id"], True)]
    current = api.get(base(space_id, cr) + "/reviews", token=ed.token, query={"outdated": "false"}).json()
    assert [r["id"] for r in current["items"]] == [second["id"]]
    assert current["count"] == 1  # decided per review after the page is read, counted all the same
    api.post(base(space_id, cr) + "/requested-reviewers", token=ed.token, body={"users": [rae.user_id]})
    reviews = api.get(base(space_id, cr) + "/reviews", token=ed.token).json()["items"]
    assert all(r["outdated"] for r in reviews)


def test_roles_and_bad_input(api, setup):
    ada, ed, rae, space_id, cr = setup
    # Editors may request reviews but not review; reviewers review.
    error(api.post(base(space_id, cr) + "/reviews", token=ed.token, body={"status": "approved"}), 403)
    assert "status" in error(api.post(base(space_id, cr) + "/reviews", token=rae.token,
                                      body={"status": "great"}), 400)
    stranger = api.org_admin("Sam", "Other")
    assert "users[0]" in error(api.post(base(space_id, cr) + "/requested-reviewers", token=ed.token,
                                        body={"users": [stranger.user_id]}), 400)
    error(api.get(base(space_id, cr) + "/reviews", token=stranger.token), 404)
    reader = join(api, ada.org_id, "Rita", "read")
    error(api.post(base(space_id, cr) + "/requested-reviewers", token=reader.token,
                   body={"users": [rae.user_id]}), 403)


def test_remove_a_requested_reviewer(api, setup):
    _ada, ed, rae, space_id, cr = setup
    api.post(base(space_id, cr) + "/requested-reviewers", token=ed.token, body={"users": [rae.user_id]})
    request = base(space_id, cr) + f"/requested-reviewers/{rae.user_id}"
    assert api.delete(request, token=ed.token).status == 205
    assert api.delete(request, token=ed.token).status == 204
    assert api.get(base(space_id, cr) + "/requested-reviewers", token=ed.token).json() == {
        "items": [], "count": 0}
    mine = api.get(f"/spaces/{space_id}/change-requests", token=rae.token,
                   query={"requestedReviewer": rae.user_id}).json()["items"]
    assert mine == []


def test_archived_change_requests_take_no_reviews(api, setup):
    _ada, ed, rae, space_id, cr = setup
    api.patch(base(space_id, cr), token=ed.token, body={"status": "archived"})
    error(api.post(base(space_id, cr) + "/reviews", token=rae.token, body={"status": "approved"}), 409)
    error(api.post(base(space_id, cr) + "/requested-reviewers", token=ed.token,
                   body={"users": [rae.user_id]}), 409)


def test_a_review_comment_is_a_comment_on_the_change_request(api, setup):
    _ada, ed, rae, space_id, cr = setup
    reply = api.post(base(space_id, cr) + "/reviews", token=rae.token,
                     body={"status": "changes-requested",
                           "comment": {"markdown": "Please fix the **intro**."}})
    assert reply.status == 201, reply.body
    review = reply.json()
    comment = review["comment"]
    assert (comment["object"], comment["postedBy"]["id"]) == ("comment", rae.user_id)
    assert comment["body"] == {"markdown": "Please fix the **intro**."}
    # it is one of the change request's comments, counted, and the review names it when read
    comments = api.get(base(space_id, cr) + "/comments", token=ed.token).json()["items"]
    assert [c["id"] for c in comments] == [comment["id"]]
    assert api.get(base(space_id, cr), token=ed.token).json()["comments"] == 1
    one = api.get(base(space_id, cr) + f"/reviews/{review['id']}", token=ed.token).json()
    assert one["comment"]["id"] == comment["id"]
    listed = api.get(base(space_id, cr) + "/reviews", token=ed.token).json()["items"]
    assert listed[0]["comment"]["id"] == comment["id"]
    # a document comment, and the spec's empty document (no comment)
    document = {"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": "paragraph", "data": {}, "nodes": [
            {"object": "text", "leaves": [{"object": "leaf", "text": "Looks good", "marks": []}]}]}]}
    approved = api.post(base(space_id, cr) + "/reviews", token=rae.token,
                        body={"status": "approved", "comment": {"document": document}}).json()
    assert approved["comment"]["body"]["markdown"].strip() == "Looks good"
    bare = api.post(base(space_id, cr) + "/reviews", token=rae.token,
                    body={"status": "approved", "comment": {}})
    assert bare.status == 201, bare.body
    assert "comment" not in bare.json()
    # deleting the comment leaves the review without one
    assert api.delete(base(space_id, cr) + f"/comments/{comment['id']}", token=rae.token).status == 204
    assert "comment" not in api.get(base(space_id, cr) + f"/reviews/{review['id']}", token=ed.token).json()
    blank = api.post(base(space_id, cr) + "/reviews", token=rae.token,
                     body={"status": "approved", "comment": {"markdown": " "}})
    assert "comment.markdown" in error(blank, 400)


def test_a_guest_sees_the_people_of_a_change_request_without_their_emails(api, setup):
    """Found by the role matrix: change requests, reviews and review requests showed guests the emails
    that every other answer hides from them."""
    ada, ed, rae, space_id, cr = setup
    guest = join(api, ada.org_id, "Gus", None)
    granted = api.post(f"/spaces/{space_id}/permissions", token=ada.token,
                       body={"users": [guest.user_id], "role": "read"})
    assert granted.status == 204, granted.body
    requested = api.post(base(space_id, cr) + "/requested-reviewers", token=ed.token,
                         body={"users": [rae.user_id]})
    assert requested.status == 200, requested.body
    reviewed = api.post(base(space_id, cr) + "/reviews", token=rae.token, body={"status": "approved"})
    assert reviewed.status == 201, reviewed.body
    answers = {path: api.get(base(space_id, cr) + path, token=guest.token) for path in (
        "", "/reviews", "/requested-reviewers", "/contributors")}
    answers["listing"] = api.get(f"/spaces/{space_id}/change-requests", token=guest.token)
    answers["org listing"] = api.get(f"/orgs/{ada.org_id}/change-requests", token=guest.token)
    for name, reply in answers.items():
        assert reply.status == 200, (name, reply.body)
        assert "@" not in reply.body.decode(), (name, reply.body)
    shown = answers[""].json()["createdBy"]
    assert (shown["id"], shown["displayName"], "email" in shown) == (ed.user_id, "Ed", False)
    # A member with a role still sees them (member listings are a directory).
    assert "email" in api.get(base(space_id, cr), token=rae.token).json()["createdBy"]
