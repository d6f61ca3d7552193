"""Bad input is a 400 naming what is wrong, never a 500: bodies that are not UTF-8, limits with a
fraction, page cursors that are not ours (found by schemathesis on the official spec)."""

from __future__ import annotations

import pytest

from tests.api.test_members import error


def raw_get(api, who, target):
    return api.gateway.dispatch("GET", "/v1" + target, {"Authorization": f"Bearer {who.token}"}, None)


def test_a_body_that_is_not_utf8_is_a_400_naming_the_body_and_changes_nothing(api):
    ada = api.org_admin()
    reply = api.gateway.dispatch("PATCH", f"/v1/orgs/{ada.org_id}", {
        "Authorization": f"Bearer {ada.token}", "Content-Type": "application/json"}, b"\xff/")
    assert error(reply, 400).startswith("body: not valid UTF-8")
    assert api.get(f"/orgs/{ada.org_id}", token=ada.token).json()["title"] == "Acme"


@pytest.mark.parametrize("limit", ["0.3333", "2.5", "999.9"])
def test_a_limit_with_a_fraction_is_a_400_naming_limit(api, limit):
    ada = api.org_admin()
    for target in ("/orgs", f"/orgs/{ada.org_id}/members", f"/orgs/{ada.org_id}/spaces"):
        message = error(raw_get(api, ada, f"{target}?limit={limit}"), 400)
        assert message.startswith("limit: must be a whole number")


def test_whole_limits_written_as_numbers_still_work(api):
    ada = api.org_admin()
    for limit in ("1", "1.0", "0"):
        assert raw_get(api, ada, f"/orgs?limit={limit}").status == 200


@pytest.mark.parametrize("cursor", ["%F0%B4%AA", "%F0%B4abc.x", "%C3%A9t%C3%A9.abc", "abc.%FF"])
def test_a_cursor_that_is_not_ours_is_a_400_naming_page(api, cursor):
    ada = api.org_admin()
    for target in ("/orgs", f"/orgs/{ada.org_id}/members", f"/orgs/{ada.org_id}/spaces"):
        assert error(raw_get(api, ada, f"{target}?page={cursor}"), 400).startswith("page: ")


def nested(depth: int) -> bytes:
    return b'{"title":' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("caller", ["owner", "outsider"])
def test_json_nested_thousands_deep_is_a_400_naming_the_body(api, caller):
    ada = api.org_admin()
    who = ada if caller == "owner" else api.org_admin("Olga", "Other")
    headers = {"Authorization": f"Bearer {who.token}", "Content-Type": "application/json"}
    for method, target in (("PATCH", f"/v1/orgs/{ada.org_id}"), ("POST", f"/v1/orgs/{ada.org_id}/spaces")):
        reply = api.gateway.dispatch(method, target, headers, nested(10_000))
        assert error(reply, 400) == "body: JSON nested deeper than 256 levels"
    assert api.get(f"/orgs/{ada.org_id}", token=ada.token).json()["title"] == "Acme"
    assert api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token).json()["items"] == []


def test_moderate_nesting_is_checked_like_any_value(api):
    ada = api.org_admin()
    reply = api.gateway.dispatch("PATCH", f"/v1/orgs/{ada.org_id}", {
        "Authorization": f"Bearer {ada.token}", "Content-Type": "application/json"}, nested(200))
    assert error(reply, 400).startswith("Invalid request: title")


def test_brackets_inside_strings_do_not_count_as_nesting():
    from bindery.http import _nesting_exceeds

    assert not _nesting_exceeds('{"title": "' + "[" * 1000 + '\\"["}', 5)
    assert _nesting_exceeds('{"a": [[[[[[1]]]]]]}', 5)
    assert not _nesting_exceeds('{"a": [[[[1]]]]}', 5)
