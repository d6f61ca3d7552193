"""Unknown request-body fields are ignored, at every level (docs/decisions.md, "Request bodies"): the
official spec's bodies are open, and clients send fields of newer API versions. Known fields beside them
still apply and are still checked."""

from __future__ import annotations

from tests.api.members.test_members import error
from tests.api.spaces.test_spaces import new_space


def test_unknown_fields_beside_known_ones_are_ignored_and_the_known_ones_apply(api):
    ada = api.org_admin()
    org = api.post("/orgs", token=ada.token, body={"title": "Fine", "colour": "red"})
    assert org.status == 201, org.body
    assert org.json()["title"] == "Fine"
    assert "colour" not in org.json()

    space = new_space(api, ada, title="Handbook", visibility="public", futureField={"a": 1})
    assert (space["title"], space["visibility"]) == ("Handbook", "private")
    patched = api.patch(f"/spaces/{space['id']}", token=ada.token,
                        body={"title": "Guide", "parent": "c1", "mergeRules": {"type": "none", "since": 3}})
    assert patched.status == 200, patched.body
    assert (patched.json()["title"], patched.json().get("parent")) == ("Guide", None)
    assert api.get(f"/spaces/{space['id']}", token=ada.token).json()["title"] == "Guide"

    team = api.put(f"/orgs/{ada.org_id}/teams", token=ada.token, body={"title": "Crew", "colour": "red"})
    assert team.status == 201, team.body
    assert team.json()["title"] == "Crew"

    comment = api.post(f"/spaces/{space['id']}/comments", token=ada.token,
                       body={"body": {"markdown": "hi"}, "extra": 1})
    assert comment.status == 200, comment.body
    assert comment.json()["body"]


def test_known_fields_are_still_checked_beside_unknown_ones(api):
    ada = api.org_admin()
    assert "title" in error(api.post("/orgs", token=ada.token, body={"title": "x", "colour": "red"}), 400)
    reply = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token,
                     body={"title": "x" * 51, "visibility": "public"})
    assert "title" in error(reply, 400)


def test_creating_a_space_from_a_template_or_computed_source_is_refused_by_name(api):
    """Ignoring these would silently make an empty space where the caller asked for content."""
    ada = api.org_admin()
    for field in ("template", "computed"):
        body = {"title": "T", field: {"id": "x"}}
        message = error(api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body=body), 400)
        assert f"{field}: " in message
        assert "not supported" in message
    assert api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token).json()["items"] == []
