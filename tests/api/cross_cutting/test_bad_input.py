"""Bad input is a 400 naming what is wrong, never a 500: bodies that are not UTF-8, limits with a
fraction, page cursors that are not ours (found by schemathesis on the official spec), text that is not
Unicode (a lone surrogate in Markdown or a document)."""

from __future__ import annotations

import copy

import pytest

from bindery.domain.sites.customization import DEFAULT as DEFAULT_CUSTOMIZATION
from tests.api.authorization_world import build_world
from tests.api.change_requests.test_change_request_content import edit, titles
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.comments.test_comments import comment_target
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.git_sync_support import git_settings  # noqa: F401 - a fixture
from tests.api.members.test_members import error
from tests.api.spaces.test_spaces import new_space


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


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "multipart/form-data"])
def test_a_body_declared_as_another_media_type_is_a_415_and_changes_nothing(api, content_type):
    # Found by schemathesis (coverage phase): Powertools refuses to parse such a body, which was a 500.
    ada = api.org_admin()
    reply = api.gateway.dispatch("PATCH", f"/v1/orgs/{ada.org_id}", {
        "Authorization": f"Bearer {ada.token}", "Content-Type": content_type}, b'{"title": "Renamed"}')
    assert error(reply, 415) == "Content-Type: send the body as application/json"
    assert api.get(f"/orgs/{ada.org_id}", token=ada.token).json()["title"] == "Acme"


def test_moderate_nesting_is_checked_like_any_value(api):
    ada = api.org_admin()
    reply = api.gateway.dispatch("PATCH", f"/v1/orgs/{ada.org_id}", {
        "Authorization": f"Bearer {ada.token}", "Content-Type": "application/json"}, nested(200))
    assert error(reply, 400).startswith("Invalid request: title")


def test_brackets_inside_strings_do_not_count_as_nesting():
    from bindery.api.http import _nesting_exceeds

    assert not _nesting_exceeds('{"title": "' + "[" * 1000 + '\\"["}', 5)
    assert _nesting_exceeds('{"a": [[[[[[1]]]]]]}', 5)
    assert not _nesting_exceeds('{"a": [[[[1]]]]}', 5)


# A JSON `\ud800` escape decodes to a lone surrogate, which no UTF-8 encoder accepts: text carrying one
# is refused like a title with one (pydantic's own message), naming the field, before anything is written.
NOT_UNICODE = "Input should be a valid string, unable to parse raw data as a unicode string"
LONE = "a\ud800b"


def _leaf_document(text):
    leaf = {"object": "leaf", "text": text, "marks": []}
    return {"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": "paragraph", "key": "k1", "data": {}, "isVoid": False,
         "nodes": [{"object": "text", "leaves": [leaf]}]}]}


@pytest.mark.parametrize("kind", ["space", "cr"])
@pytest.mark.parametrize(("body", "named"), [
    ({"markdown": LONE}, "body.markdown"),
    ({"document": _leaf_document(LONE)}, "body.document"),
])
def test_a_comment_with_a_lone_surrogate_is_a_400_naming_the_field(api, kind, body, named):
    where = comment_target(api, kind)
    reply = api.post(f"{where.base}/comments", token=where.admin.token, body={"body": body})
    assert error(reply, 400) == f"Invalid request: {named}: {NOT_UNICODE}"
    assert where.list(where.admin)["items"] == []
    # Characters beyond the BMP travel in JSON as a surrogate *pair*: those are text like any other.
    posted = where.post(where.admin, "ok 😀 \U0001d11e")
    assert posted["body"] == {"markdown": "ok 😀 \U0001d11e"}
    replied = api.post(f"{where.base}/comments/{posted['id']}/replies", token=where.admin.token,
                       body={"body": {"markdown": LONE}})
    assert error(replied, 400) == f"Invalid request: body.markdown: {NOT_UNICODE}"


@pytest.fixture
def handbook(api):
    """A change request on a space with pages Intro (Details under it) and Outro."""
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    publish(space_id, tree(page("p1", "Intro", page("p2", "Details")), page("p3", "Outro")),
            {"p1": doc("Hello"), "p2": doc("Deep"), "p3": doc("Bye")})
    return ada, space_id, new_cr(api, ada, space_id, subject="Edits")


@pytest.mark.parametrize("change", [
    {"operation": "insert_page", "title": "New", "document": {"markdown": LONE}},
    {"operation": "insert_page", "title": "New", "document": {"document": _leaf_document(LONE)}},
    {"operation": "update_page", "page": "p1", "document": {"markdown": "# Intro\n\n" + LONE}},
])
def test_page_text_with_a_lone_surrogate_is_a_400_naming_the_field_and_changes_nothing(api, handbook, change):
    ada, space_id, cr = handbook
    before = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}", token=ada.token).json()["revision"]
    message = error(edit(api, ada, space_id, cr["id"], change), 400)
    source = "markdown" if "markdown" in change["document"] else "document"
    assert message == f"Invalid request: changes.0.{change['operation']}.document.{source}: {NOT_UNICODE}"
    after = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}", token=ada.token).json()["revision"]
    assert after == before
    assert titles(api, ada, space_id, cr["id"]) == [("Intro", ["Details"]), "Outro"]


def test_a_review_comment_with_a_lone_surrogate_is_a_400_naming_the_field(api, handbook):
    ada, space_id, cr = handbook
    reply = api.post(f"/spaces/{space_id}/change-requests/{cr['id']}/reviews", token=ada.token,
                     body={"status": "approved", "comment": {"markdown": LONE}})
    assert error(reply, 400) == f"Invalid request: comment.markdown: {NOT_UNICODE}"


@pytest.mark.parametrize("query", ["status=closed", "creator=", "requestedReviewer=",
                                   "conversationsIssuesCluster="])
def test_a_bad_change_request_filter_is_a_400_naming_it_in_both_listings(api, query):
    """Both listings take the same filters (change_requests_api.listing_query), checked the same way."""
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    name = query.split("=")[0]
    for target in (f"/spaces/{space_id}/change-requests", f"/orgs/{ada.org_id}/change-requests"):
        assert error(raw_get(api, ada, f"{target}?{query}"), 400).startswith(f"Invalid request: {name}: ")
        assert raw_get(api, ada, f"{target}?{name}=x").status == (400 if name == "status" else 200)


# Found by the generated corpus (tests/api/cross_cutting/test_bad_input_corpus.py): both were 500s.
@pytest.mark.parametrize("entry", [LONE, {"email": LONE, "role": "read"}])
def test_an_invited_email_with_a_lone_surrogate_is_a_400_naming_emails(api, entry):
    ada = api.org_admin()
    reply = api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={"emails": [entry], "role": "read"})
    assert error(reply, 400).startswith("Invalid request: emails.0")
    members = api.get(f"/orgs/{ada.org_id}/members", token=ada.token).json()["items"]
    assert [member["user"]["id"] for member in members] == [ada.user_id]


def test_instructions_too_large_for_their_item_are_a_400_naming_them_and_change_nothing(api):
    ada = api.org_admin()
    target = f"/orgs/{ada.org_id}/agent-instructions"
    assert api.put(target, token=ada.token, body={"instructions": doc("Be brief.")}).status == 200
    reply = api.put(target, token=ada.token, body={"instructions": doc("a" * 100_001)})
    assert error(reply, 400) == "Invalid request: instructions: Input should be at most 100000 bytes as JSON"
    assert "Be brief." in str(api.get(target, token=ada.token).json())


def test_a_site_customization_with_a_lone_surrogate_is_a_400_and_changes_nothing(
        api, tmp_path, deliver_queued, git_settings):  # noqa: F811
    world = build_world(api, tmp_path, deliver_queued)
    site = f"/orgs/{world.ids['organizationId']}/sites/{world.ids['siteId']}"
    token = world.alice.token
    before = api.get(site + "/customization", token=token).json()
    body = {**copy.deepcopy(DEFAULT_CUSTOMIZATION), "title": LONE}
    assert error(api.put(site + "/customization", token=token, body=body), 400).endswith(NOT_UNICODE)
    override = f"{site}/site-spaces/{world.ids['siteSpaceId']}/customization"
    assert error(api.patch(override, token=token, body={"title": LONE}), 400).endswith(NOT_UNICODE)
    assert api.get(site + "/customization", token=token).json() == before
