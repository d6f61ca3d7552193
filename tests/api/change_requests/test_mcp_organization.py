"""The organization's MCP server, `POST /v1/mcp` (docs/agents.md "MCP"), spoken to as JSON-RPC through the
gateway: the API token decides who calls, as on REST; every write lands as the REST API's would."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bindery.store import revisions as revision_store
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.integration_support import install
from tests.api.integration_support import publish as publish_integration
from tests.api.members.test_members import join
from tests.api.spaces.test_spaces import new_space

HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


def rpc(api, who, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    reply = api.post("/mcp", token=who.token if who else None, headers=HEADERS,
                     body={"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}})
    assert reply.status == 200, reply.body
    return json.loads(reply.body)


def call(api, who, tool: str, **arguments: Any) -> dict[str, Any]:
    """The tool's result: `isError` and its text (and structured content when it has one)."""
    answer = rpc(api, who, "tools/call", {"name": tool, "arguments": arguments})
    return answer["result"]


def value(result: dict[str, Any]) -> Any:
    assert result["isError"] is False, result
    structured = result.get("structuredContent")
    if structured is None:
        return result["content"][0]["text"]
    # The SDK wraps a tool's list or str as {"result": ...}; a dict is the structure itself.
    return structured["result"] if set(structured) == {"result"} else structured


@pytest.fixture
def setup(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    publish(space_id, tree(page("p1", "Intro"), page("p2", "Outro")), {"p1": doc("Hello"), "p2": doc("Bye")})
    return ada, space_id


def test_initialize_names_the_server_and_lists_the_tools(api, setup):
    ada, _ = setup
    started = rpc(api, ada, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "test", "version": "1"}})["result"]
    assert started["serverInfo"]["name"] == "Bindery organization"
    assert "change request" in started["instructions"]
    tools = {tool["name"] for tool in rpc(api, ada, "tools/list")["result"]["tools"]}
    assert {"list_spaces", "search_content", "read_page", "create_change_request", "create_page",
            "update_page", "move_page", "delete_page", "comment", "request_review",
            "merge_change_request"} <= tools


def test_without_a_token_the_gateway_refuses(api, setup):
    reply = api.post("/mcp", headers=HEADERS, body={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert reply.status == 401


def test_read_page_as_markdown_and_list_spaces(api, setup):
    ada, space_id = setup
    listed = value(call(api, ada, "list_spaces", organization_id=ada.org_id))
    assert ([s["id"] for s in listed["items"]], listed["next_page"]) == ([space_id], None)
    assert value(call(api, ada, "read_page", space_id=space_id, page_path="outro")) == "# Outro\n\nBye\n"
    pages = value(call(api, ada, "list_pages", space_id=space_id))
    assert [(p["id"], p["path"]) for p in pages] == [("p1", "intro"), ("p2", "outro")]
    found = value(call(api, ada, "search_content", organization_id=ada.org_id, query="Bye"))
    assert [(s["space_id"], [p["path"] for p in s["pages"]]) for s in found] == [(space_id, ["outro"])]


def test_change_request_edit_comment_and_merge_show_through_rest(api, setup):
    ada, space_id = setup
    cr = value(call(api, ada, "create_change_request", space_id=space_id, subject="From an agent"))
    edited = value(call(api, ada, "update_page", space_id=space_id, change_request_id=cr["id"], page_id="p1",
                        markdown="# Intro\n\nWritten by an **agent**.\n"))
    assert edited["pages"] == {"p1": "updated_page"}
    added = value(call(api, ada, "create_page", space_id=space_id, change_request_id=cr["id"], title="New",
                       markdown="Fresh page."))
    (new_id,) = added["pages"]
    value(call(api, ada, "move_page", space_id=space_id, change_request_id=cr["id"], page_id=new_id,
               parent_page_id="p2"))
    value(call(api, ada, "delete_page", space_id=space_id, change_request_id=cr["id"], page_id="p1"))
    value(call(api, ada, "comment", space_id=space_id, change_request_id=cr["id"], markdown="Please look"))
    reviewer = join(api, ada.org_id, "Rev", "review")
    asked = value(call(api, ada, "request_review", space_id=space_id, change_request_id=cr["id"],
                       user_ids=[reviewer.user_id]))
    assert asked == [reviewer.user_id]
    requested = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/requested-reviewers", token=ada.token)
    assert [r["user"]["id"] for r in requested.json()["items"]] == [reviewer.user_id]
    # Nothing merged yet: the space's content is unchanged, the change request's has the edits.
    assert api.get(f"/spaces/{space_id}/content/path/intro", token=ada.token).status == 200
    # The writes are the change request's, as REST's would be: its changes name them.
    changes = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/changes", token=ada.token).json()
    assert sorted((c["type"], c["page"]["path"]) for c in changes["changes"]) == [
        ("page_created", "outro/new"), ("page_deleted", "intro")]
    comments = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/comments", token=ada.token).json()
    assert comments["count"] == 1
    merged = value(call(api, ada, "merge_change_request", space_id=space_id, change_request_id=cr["id"]))
    assert merged["result"] == "merge"
    pages = api.get(f"/spaces/{space_id}/content/pages", token=ada.token).json()["pages"]
    assert [(p["title"], [c["title"] for c in p["pages"]]) for p in pages] == [("Outro", ["New"])]
    assert api.get(f"/spaces/{space_id}/content/path/intro", token=ada.token).status == 404


def test_a_reader_reads_but_cannot_edit_or_merge(api, setup):
    ada, space_id = setup
    cr = value(call(api, ada, "create_change_request", space_id=space_id))
    reader = join(api, ada.org_id, "Rae", "read")
    assert value(call(api, reader, "read_page", space_id=space_id, page_path="intro")) == "# Intro\n\nHello\n"
    refused = call(api, reader, "merge_change_request", space_id=space_id, change_request_id=cr["id"])
    assert refused["isError"] is True
    refused = call(api, reader, "update_page", space_id=space_id, change_request_id=cr["id"], page_id="p1",
                   title="Mine")
    assert refused["isError"] is True
    status = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}", token=ada.token).json()["status"]
    assert status == "open"


def test_another_organization_sees_nothing(api, setup):
    ada, space_id = setup
    eve = api.org_admin("Eve", "Elsewhere")
    assert [o["id"] for o in value(call(api, eve, "list_organizations"))["items"]] == [eve.org_id]
    assert call(api, eve, "list_spaces", organization_id=ada.org_id)["isError"] is True
    assert call(api, eve, "read_page", space_id=space_id, page_path="intro")["isError"] is True
    assert call(api, eve, "create_change_request", space_id=space_id)["isError"] is True
    hits = call(api, eve, "search_content", organization_id=ada.org_id, query="Hello")
    assert hits["isError"] is True
    assert api.get(f"/spaces/{space_id}/change-requests", token=ada.token).json()["count"] == 0


def test_malformed_requests_are_refused_by_the_protocol_never_a_server_error(api, setup):
    ada, _ = setup
    cases = (({}, b""), (HEADERS, b"not json"), (HEADERS, b"{}"), ({}, b'{"jsonrpc": "2.0"}'),
             ({**HEADERS, "Content-Type": "text/plain"}, b"{}"))  # the transport's own refusal, in JSON too
    for headers, raw in cases:
        reply = api.post("/mcp", token=ada.token, headers={"Content-Type": "application/json", **headers},
                         raw=raw)
        assert 400 <= reply.status < 500, (raw, reply.status, reply.body)
        # The API's error shape (the HTTP status as `code`) inside a JSON-RPC error envelope.
        answer = json.loads(reply.body)
        assert answer["error"]["code"] == reply.status
        assert answer["error"]["message"]


def test_an_installation_token_is_refused_whatever_its_scopes(api, setup):
    ada, _ = setup
    dev = api.org_admin("Dev", "Developer")
    scopes = ["space:content:read", "space:content:write", "space:metadata:read"]
    publish_integration(api, dev, "writer", scopes=scopes)
    installation = install(api, ada, "writer")
    made = api.post(f"/integrations/writer/installations/{installation['id']}/tokens", token=dev.token)
    assert made.status == 200, made.body
    reply = api.post("/mcp", token=made.json()["token"], headers=HEADERS,
                     body={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert reply.status == 403


def test_a_page_read_costs_what_the_rest_read_costs(api, setup, request_counter):
    ada, space_id = setup
    api.get(f"/spaces/{space_id}/content/path/outro", token=ada.token, query={"format": "markdown"})
    revision_store.clear_cache()
    request_counter.clear()
    rest = api.get(f"/spaces/{space_id}/content/path/outro", token=ada.token, query={"format": "markdown"})
    assert rest.status == 200
    expected = dict(request_counter)
    revision_store.clear_cache()
    request_counter.clear()
    assert value(call(api, ada, "read_page", space_id=space_id, page_path="outro")) == "# Outro\n\nBye\n"
    # the token (authorizer), the space, membership and collections, the revision, tree and document
    assert request_counter == expected == {"GetItem": 5, "BatchGetItem": 1}


def test_spaces_are_listed_a_page_at_a_time(api, setup):
    ada, space_id = setup
    others = [new_space(api, ada, title=f"Space {i}")["id"] for i in range(100)]
    first = value(call(api, ada, "list_spaces", organization_id=ada.org_id))
    assert len(first["items"]) == 100
    assert first["next_page"]
    second = value(call(api, ada, "list_spaces", organization_id=ada.org_id, page=first["next_page"]))
    assert second["next_page"] is None
    assert sorted(s["id"] for s in first["items"] + second["items"]) == sorted([space_id, *others])
