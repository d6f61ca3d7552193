"""User endpoints."""

from __future__ import annotations


def test_current_user(api):
    ada = api.user("Ada", "ada@example.com")
    body = api.get("/user", token=ada.token).json()
    assert body["object"] == "user"
    assert body["id"] == ada.user_id
    assert body["displayName"] == "Ada"
    assert body["email"] == "ada@example.com"
    assert body["urls"]["location"].endswith(f"/users/{ada.user_id}")


def test_other_users_profile_hides_email(api):
    ada = api.user("Ada")
    bob = api.user("Bob", "bob@example.com")
    body = api.get(f"/users/{bob.user_id}", token=ada.token).json()
    assert body["displayName"] == "Bob"
    assert "email" not in body


def test_unknown_user_is_404(api):
    ada = api.user()
    reply = api.get("/users/nobody", token=ada.token)
    assert reply.status == 404
    assert reply.json()["error"]["code"] == 404


def test_users_need_a_token(api):
    assert api.get("/user").status == 401
