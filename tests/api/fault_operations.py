"""The write operations tests/api/cross_cutting/test_faults.py injects AWS faults into: for each, how to
set up a world for it, the request, what a user sees of the result (`observe`, read through the API), and
whether what they see is the operation done (`done(before, after)`)."""

from __future__ import annotations

import base64
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bindery.platform.config import settings
from local.gateway import Reply
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.client import ApiClient, Identity

World = dict[str, Any]


@dataclass(frozen=True)
class Operation:
    name: str
    setup: Callable[[ApiClient], World]
    act: Callable[[ApiClient, World], Reply]
    observe: Callable[[ApiClient, World], Any]
    done: Callable[[Any, Any], bool]
    queues: bool = False  # needs the template's SQS queues (and file:// Git URLs)
    # What a failed attempt may leave for users to see: by default nothing at all.
    failed: Callable[[Any, Any], bool] = lambda before, after: after == before


def _ok(reply: Reply) -> Any:
    assert reply.status < 300, reply.body
    return reply.json()


def _org(api: ApiClient) -> World:
    # A test builds several worlds in one table: each has its own admin (emails are unique), invitee and
    # file bytes (stored bytes are shared by digest), so that no world starts with another's leftovers.
    unique = uuid.uuid4().hex[:8]
    return {"ada": api.org_admin(f"Ada {unique}"), "invitee": f"new.{unique}@example.org",
            "png": base64.b64encode(b"\x89PNG\r\n\x1a\n" + unique.encode()).decode()}


def _space(api: ApiClient) -> World:
    world = _org(api)
    ada: Identity = world["ada"]
    created = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"title": "Guide"})
    world["space"] = _ok(created)["id"]
    publish(world["space"], tree(page("p1", "Intro")), {"p1": doc("Hello")})
    return world


def _change_request(api: ApiClient) -> World:
    world = _space(api)
    world["cr"] = _ok(api.post(f"/spaces/{world['space']}/change-requests", token=world["ada"].token,
                               body={"subject": "Edits"}))["id"]
    return world


def _cr_path(world: World, rest: str = "") -> str:
    return f"/spaces/{world['space']}/change-requests/{world['cr']}{rest}"


def _titles(api: ApiClient, who: Identity, path: str) -> list[str]:
    return [entry["title"] for entry in _ok(api.get(path, token=who.token))["pages"]]


def _edit(api: ApiClient, world: World, *changes: dict[str, Any]) -> Reply:
    return api.post(_cr_path(world, "/content"), token=world["ada"].token, body={"changes": list(changes)},
                    query={"compat": False})


# --- create a space ---------------------------------------------------------------------------------------
def _spaces(api: ApiClient, world: World) -> Any:
    ada = world["ada"]
    listing = _ok(api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token))
    return sorted(space["title"] for space in listing["items"]), listing["count"]


CREATE_SPACE = Operation(
    "create-space", _org,
    lambda api, w: api.post(f"/orgs/{w['ada'].org_id}/spaces", token=w["ada"].token, body={"title": "New"}),
    _spaces, lambda before, after: after == (sorted([*before[0], "New"]), before[1] + 1))


# --- edit a change request's content ----------------------------------------------------------------------
def _cr_content(api: ApiClient, world: World) -> Any:
    files = _ok(api.get(_cr_path(world, "/content/files"), token=world["ada"].token))["items"]
    return _titles(api, world["ada"], _cr_path(world, "/content/pages")), sorted(f["name"] for f in files)


EDIT_CONTENT = Operation(
    "edit-change-request", _change_request,
    lambda api, w: _edit(api, w, {"operation": "insert_page", "title": "Setup",
                                  "document": {"markdown": "Run *it*."}}),
    _cr_content, lambda before, after: after == ([*before[0], "Setup"], before[1]))

UPLOAD_FILE = Operation(
    "upload-file", _change_request,
    lambda api, w: _edit(api, w, {"operation": "insert_files", "files": [
        {"name": "logo.png", "contentType": "image/png", "base64": w["png"]}]}),
    _cr_content, lambda before, after: after == (before[0], ["logo.png"]))


# --- merge a change request -------------------------------------------------------------------------------
def _edited_change_request(api: ApiClient) -> World:
    world = _change_request(api)
    _ok(_edit(api, world, {"operation": "update_page", "page": "p1", "title": "Welcome"}))
    return world


def _merge_state(api: ApiClient, world: World) -> Any:
    ada = world["ada"]
    space = _ok(api.get(f"/spaces/{world['space']}", token=ada.token))
    change_request = _ok(api.get(_cr_path(world), token=ada.token))
    return (_titles(api, ada, f"/spaces/{world['space']}/content/pages"), change_request["status"],
            space["changeRequestsOpen"])


MERGE = Operation(
    "merge-change-request", _edited_change_request,
    lambda api, w: api.post(_cr_path(w, "/merge"), token=w["ada"].token),
    _merge_state, lambda before, after: after == (["Welcome"], "merged", before[2] - 1))


# --- post a comment ---------------------------------------------------------------------------------------
def _comments(api: ApiClient, world: World) -> Any:
    listing = _ok(api.get(f"/spaces/{world['space']}/comments", token=world["ada"].token))
    return sorted(comment["body"]["markdown"] for comment in listing["items"]), listing["count"]


POST_COMMENT = Operation(
    "post-comment", _space,
    lambda api, w: api.post(f"/spaces/{w['space']}/comments", token=w["ada"].token,
                            body={"body": {"markdown": "Looks good"}}),
    _comments, lambda before, after: after == (sorted([*before[0], "Looks good"]), before[1] + 1))


# --- organizations and members ----------------------------------------------------------------------------
def _orgs(api: ApiClient, world: World) -> Any:
    listing = _ok(api.get("/orgs", token=world["ada"].token))
    return sorted(org["title"] for org in listing["items"]), listing["count"]


CREATE_ORG = Operation(
    "create-organization", _org,
    lambda api, w: api.post("/orgs", token=w["ada"].token, body={"title": "Second"}),
    _orgs, lambda before, after: after == (sorted([*before[0], "Second"]), before[1] + 1))


def _members(api: ApiClient, world: World) -> Any:
    ada = world["ada"]
    listing = _ok(api.get(f"/orgs/{ada.org_id}/members", token=ada.token))
    return sorted((member["user"]["displayName"], member["role"]) for member in listing["items"]), \
        listing["count"]


INVITE = Operation(
    "invite-member", _org,
    lambda api, w: api.post(f"/orgs/{w['ada'].org_id}/invites", token=w["ada"].token,
                            body={"emails": [w["invitee"]], "role": "edit"}),
    _members, lambda before, after: after[1] == before[1] + 1 and set(before[0]) < set(after[0])
    and {role for _, role in set(after[0]) - set(before[0])} == {"edit"})


# --- publish a site ---------------------------------------------------------------------------------------
def _site_world(api: ApiClient) -> World:
    world = _space(api)
    ada = world["ada"]
    world["site"] = _ok(api.post(f"/orgs/{ada.org_id}/sites", token=ada.token,
                                 body={"title": "Docs", "spaces": [world["space"]]}))["id"]
    return world


def _site(api: ApiClient, world: World) -> Any:
    ada = world["ada"]
    site = _ok(api.get(f"/orgs/{ada.org_id}/sites/{world['site']}", token=ada.token))
    return site["published"], "published" in site["urls"]


PUBLISH_SITE = Operation(
    "publish-site", _site_world,
    lambda api, w: api.post(f"/orgs/{w['ada'].org_id}/sites/{w['site']}/publish", token=w["ada"].token),
    _site, lambda before, after: before == (False, False) and after == (True, True))



# --- operations that queue work (SQS) ---------------------------------------------------------------------
def _waiting(queue_url: str) -> int:
    """Messages on the queue (no worker runs here): what says the work will happen."""
    from bindery.platform import aws

    attributes = aws.sqs_client().get_queue_attributes(QueueUrl=queue_url,
                                                       AttributeNames=["ApproximateNumberOfMessages"])
    return int(attributes["Attributes"]["ApproximateNumberOfMessages"])


def _specs(api: ApiClient, world: World) -> Any:
    ada = world["ada"]
    listing = _ok(api.get(f"/orgs/{ada.org_id}/openapi", token=ada.token))
    specs = sorted((item["slug"], item["processingState"], item.get("sourceURL"))
                   for item in listing["items"])
    return specs, listing["count"], _waiting(settings().openapi_queue_url)


CREATE_SPEC = Operation(
    "create-openapi-spec", _org,
    lambda api, w: api.post(f"/orgs/{w['ada'].org_id}/openapi", token=w["ada"].token, body={
        "slug": "pets", "source": {"text": '{"openapi": "3.0.0", "info": {"title": "Pets", "version": "1"}, '
                                           '"paths": {}}'}}),
    _specs, lambda before, after: after == (sorted([*before[0], ("pets", "pending", None)]), before[1] + 1,
                                            before[2] + 1),
    queues=True)


PETS_URL = "https://specs.example.com/pets.json"


def _spec_world(api: ApiClient) -> World:
    world = _org(api)
    _ok(CREATE_SPEC.act(api, world))
    return world


REPLACE_SPEC = Operation(
    "replace-openapi-spec-source", _spec_world,
    lambda api, w: api.put(f"/orgs/{w['ada'].org_id}/openapi/pets", token=w["ada"].token, body={
        "source": {"url": PETS_URL}}),
    # Processed again: pending, one more message. A failed replacement may leave the spec pending on the
    # new source with no message for it (docs/reliability.md): the same request sent again queues it.
    _specs, lambda before, after: after == ([("pets", "pending", PETS_URL)], before[1], before[2] + 1),
    queues=True,
    failed=lambda before, after: after[1:] == before[1:]
    and after[0] in (before[0], [("pets", "pending", PETS_URL)]))


def _translations(api: ApiClient, world: World) -> Any:
    ada = world["ada"]
    listing = _ok(api.get(f"/orgs/{ada.org_id}/translations", token=ada.token))
    return (sorted((item["language"], item["status"]) for item in listing["items"]), listing["count"],
            _waiting(settings().translation_queue_url))


CREATE_TRANSLATION = Operation(
    "create-translation", _space,
    lambda api, w: api.post(f"/orgs/{w['ada'].org_id}/translations", token=w["ada"].token, body={
        "source": {"space": w["space"], "language": "en"}, "language": "fr"}),
    _translations, lambda before, after: after == (sorted([*before[0], ("fr", "pending")]), before[1] + 1,
                                                   before[2] + 1),
    queues=True)


def _completed_translation(api: ApiClient) -> World:
    """A translation whose last run completed (written as the worker leaves it: no translator here)."""
    from bindery.store import translations as translation_store
    from bindery.store.table import Transaction, update_op

    world = _space(api)
    ada = world["ada"]
    made = _ok(api.post(f"/orgs/{ada.org_id}/translations", token=ada.token, body={
        "source": {"space": world["space"], "language": "en"}, "language": "fr"}))
    translation = translation_store.get_translation(ada.org_id, made["id"])
    assert translation is not None
    Transaction(update_op(translation.key, "SET #status = :completed", {":completed": "completed"},
                          names={"#status": "status"})).commit()
    world["translation"] = made["id"]
    return world


RUN_TRANSLATION = Operation(
    "run-translation", _completed_translation,
    lambda api, w: api.post(f"/orgs/{w['ada'].org_id}/translations/{w['translation']}/run",
                            token=w["ada"].token),
    _translations, lambda before, after: after == ([("fr", "pending")], 1, before[2] + 1), queues=True)


def _runs(api: ApiClient, world: World) -> Any:
    return [run["status"] for run in _ok(api.get(f"/spaces/{world['space']}/git/runs",
                                                 token=world["ada"].token))["items"]] \
        + [_waiting(settings().git_sync_queue_url)]


GIT_IMPORT = Operation(
    "git-import", _space,
    lambda api, w: api.post(f"/spaces/{w['space']}/git/import", token=w["ada"].token,
                            body={"url": "file:///nonexistent/docs.git", "ref": "main"}),
    _runs, lambda before, after: after == ["pending", *before[:-1], before[-1] + 1], queues=True,
    # The run is recorded before its message is sent; when the send fails it is marked failed ("could
    # not be queued; start it again"), never left pending with no message to perform it.
    failed=lambda before, after: after[-1] == before[-1] and after[len(after) - len(before):-1] == before[:-1]
    and set(after[:len(after) - len(before)]) <= {"failed"})

def _conversations(api: ApiClient, world: World) -> Any:
    ada = world["ada"]
    listing = _ok(api.get(f"/orgs/{ada.org_id}/conversations", token=ada.token))
    return ({item["subject"] for item in listing["items"]}, listing["count"],
            _waiting(settings().conversations_queue_url))


INGEST_CONVERSATION = Operation(
    "ingest-conversation", _org,
    lambda api, w: api.post(f"/orgs/{w['ada'].org_id}/conversations", token=w["ada"].token, body={
        "id": "ticket-1", "subject": "Login fails",
        "parts": [{"type": "message", "role": "user", "body": "I cannot log in."}]}),
    _conversations, lambda before, after: after == (before[0] | {"Login fails"}, len(after[0]),
                                                    before[2] + 1),
    queues=True,
    # Stored, its message not sent (SQS failed): the same request sent again queues it (the content is
    # the same and not processed yet: docs/conversations.md), never a second conversation.
    failed=lambda before, after: after in (before, ({"Login fails"}, 1, before[2])))

OPERATIONS = [CREATE_SPACE, EDIT_CONTENT, UPLOAD_FILE, MERGE, POST_COMMENT, CREATE_ORG, INVITE, PUBLISH_SITE,
              CREATE_SPEC, REPLACE_SPEC, CREATE_TRANSLATION, RUN_TRANSLATION, GIT_IMPORT, INGEST_CONVERSATION]
