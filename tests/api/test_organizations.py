"""Organization endpoints through API Gateway events."""

from __future__ import annotations


def test_missing_token_is_401_in_error_shape(api):
    reply = api.get("/orgs")
    assert reply.status == 401
    assert reply.json()["error"]["code"] == 401


def test_unknown_token_is_401(api):
    reply = api.get("/orgs", token="gb_api_not-a-real-token")
    assert reply.status == 401
    assert reply.json() == {"error": {"code": 401, "message": reply.json()["error"]["message"]}}


def test_get_own_org(api):
    ada = api.org_admin()
    reply = api.get(f"/orgs/{ada.org_id}", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert body["object"] == "organization"
    assert body["id"] == ada.org_id
    assert body["title"] == "Acme"
    assert body["permissions"]["admin"] is True


def test_other_orgs_are_404(api):
    ada = api.org_admin()
    bob = api.org_admin("Bob", "Bobco")
    reply = api.get(f"/orgs/{bob.org_id}", token=ada.token)
    assert reply.status == 404
    assert reply.json()["error"]["code"] == 404
    assert "Bobco" not in reply.body.decode()


def test_get_org_is_one_request(api, request_counter):
    ada = api.org_admin()
    request_counter.clear()
    assert api.get(f"/orgs/{ada.org_id}", token=ada.token).status == 200
    # GetItem for the token (authorizer), one BatchGetItem for organization + membership
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1}
