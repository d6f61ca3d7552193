"""A published site's MCP server, `{site URL}/~gitbook/mcp` (docs/agents.md "MCP"), spoken to as JSON-RPC
through the readers' API: it searches and reads what the site's HTML shows this visitor, and refuses
exactly where the HTML refuses; `agentsContext: excluded` and `pageActions.mcp: false` turn it off."""

from __future__ import annotations

import json
import time
from typing import Any

import jwt
import pytest

from bindery.store import revisions as revision_store
from local.gateway import Reply
from tests.site_pages.served.conftest import World
from tests.site_pages.served.test_site_visibility import publishing_auth, token

# Every case on DynamoDB Local too (the issue asks each refusal of both engines).
pytestmark = pytest.mark.repository

HEADERS = {"Host": "127.0.0.1:3000", "Content-Type": "application/json",
           "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}
SITE = "http://127.0.0.1:3000/sites/acme/docs"


def post(world: World, method: str, params: dict[str, Any] | None = None, *, query: str = "") -> Reply:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}).encode()
    return world.api.gateway.dispatch("POST", f"/sites/acme/docs/~gitbook/mcp{query}", HEADERS, body)


def result(world: World, method: str, params: dict[str, Any] | None = None, **kw: Any) -> Any:
    reply = post(world, method, params, **kw)
    assert reply.status == 200, reply.body
    return json.loads(reply.body)["result"]


def tool(world: World, name: str, **arguments: Any) -> Any:
    called = result(world, "tools/call", {"name": name, "arguments": arguments})
    assert called["isError"] is False, called
    return called["structuredContent"]["result"]


def test_the_server_names_the_site_and_offers_search_and_read(world: World):
    started = result(world, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "test", "version": "1"}})
    assert started["serverInfo"]["name"] == "Acme Docs"
    assert "Acme Docs" in started["instructions"]
    assert {t["name"] for t in result(world, "tools/list")["tools"]} == {"search", "read_page"}


def test_search_then_read_a_page_as_markdown(world: World):
    hits = tool(world, "search", query="buffer")
    assert [hit["url"] for hit in hits] == [f"{SITE}/install/linux"]
    markdown = tool(world, "read_page", url=hits[0]["url"])
    assert markdown.startswith("# On Linux\n")
    assert "Use apt to install **buffer** plugins." in markdown
    assert tool(world, "read_page", url="/sites/acme/docs/install/linux.md") == markdown
    # A hidden page is left out of the navigation but read by its URL, as its HTML page is.
    assert "Not in the sidebar." in tool(world, "read_page", url=f"{SITE}/secret")
    missing = result(world, "tools/call", {"name": "read_page", "arguments": {"url": f"{SITE}/nope"}})
    assert missing["isError"] is True


def test_page_resources_are_the_navigation_pages_as_markdown(world: World):
    listed = result(world, "resources/list")["resources"]
    uris = [resource["uri"] for resource in listed]
    assert f"{SITE}/install/linux.md" in uris
    assert f"{SITE}/secret.md" not in uris  # hidden: not listed
    assert {resource["mimeType"] for resource in listed} == {"text/markdown"}
    read = result(world, "resources/read", {"uri": f"{SITE}/install/linux.md"})
    assert read["contents"][0]["text"].startswith("# On Linux\n")


def test_if_blocks_and_conditions_are_decided_by_the_visitors_claims(world: World):
    anonymous = tool(world, "read_page", url=f"{SITE}/reference/options")
    assert "Every option." in anonymous
    assert "Pro settings." not in anonymous
    assert "Pro settings." in world.text("/reference/options?visitor.pro=true")
    options = {"name": "read_page", "arguments": {"url": f"{SITE}/reference/options"}}
    pro = result(world, "tools/call", options, query="?visitor.pro=true")
    assert "Pro settings." in pro["structuredContent"]["result"]
    planned = result(world, "tools/call", options, query="?visitor.plan=pro")
    assert "Your plan: pro." in planned["structuredContent"]["result"]  # expressions, as on the HTML page
    spaces = world.api.get(world.site("/site-spaces"), token=world.ada.token).json()["items"]
    api_site_space = next(ss for ss in spaces if ss["space"]["id"] == world.api_space)
    changed = world.api.patch(world.site(f"/site-spaces/{api_site_space['id']}"), token=world.ada.token,
                              body={"condition": 'visitor.claims.unsigned.tier == "pro"'})
    assert changed.status == 200, changed.body
    assert "<h1>API</h1>" not in world.get("/api").body.decode()
    assert result(world, "tools/call", {"name": "read_page", "arguments": {"url": f"{SITE}/api"}})["isError"]
    shown = result(world, "tools/call", {"name": "read_page", "arguments": {"url": f"{SITE}/api"}},
                   query="?visitor.tier=pro")
    assert shown["structuredContent"]["result"].startswith("# API\n")


def test_excluded_from_agents_or_mcp_action_off_is_not_found(world: World):
    world.patch_site(agentsContext="excluded")
    reply = post(world, "tools/list")
    assert reply.status == 404
    assert reply.headers["X-Robots-Tag"] == "noindex"
    assert json.loads(reply.body)["error"] == {"code": 404, "message": "This site has no MCP server."}
    world.patch_site(agentsContext="included")
    assert post(world, "tools/list").status == 200
    settings = world.api.get(world.site("/customization"), token=world.ada.token).json()
    settings["pageActions"]["mcp"] = False
    customized = world.api.put(world.site("/customization"), token=world.ada.token, body=settings)
    assert customized.status == 200, customized.body
    assert post(world, "tools/list").status == 404


def test_refuses_where_the_html_refuses(world: World):
    assert world.api.post(world.site("/unpublish"), token=world.ada.token).status == 200
    assert world.get("/install").status == 404
    assert post(world, "tools/list").status == 404
    assert world.api.post(world.site("/publish"), token=world.ada.token).status == 200
    world.patch_site(visibility="share-link")
    link = world.api.post(world.site("/share-links"), token=world.ada.token, body={"name": "Agents"}).json()
    key = link["urls"]["published"].split("shareKey=")[1]
    assert post(world, "tools/list").status == 404
    assert post(world, "tools/list", query="?shareKey=wrong").status == 404
    assert post(world, "tools/list", query=f"?shareKey={key}").status == 200


def test_a_visitor_auth_site_needs_a_valid_token(world: World):
    key = publishing_auth(world)["privateKey"]
    world.patch_site(visibility="visitor-auth")
    assert post(world, "tools/list").status == 401
    unsigned = jwt.encode({"exp": int(time.time()) + 600}, key="", algorithm="none")
    assert world.get(f"/install?jwt_token={unsigned}").status == 401
    assert post(world, "tools/list", query=f"?jwt_token={unsigned}").status == 401
    wrong = token("a-key-of-another-site-0123456789abcdef")
    assert post(world, "tools/list", query=f"?jwt_token={wrong}").status == 401
    assert post(world, "tools/list", query=f"?jwt_token={token(key)}").status == 200


def test_an_mcp_page_read_costs_no_more_than_the_html_page(world: World, request_counter: dict[str, int]):
    world.get("/install/linux")  # both warm: the revision, tree and document are cached in the process
    revision_store.clear_cache()
    request_counter.clear()
    assert world.get("/install/linux").status == 200
    html = dict(request_counter)
    revision_store.clear_cache()
    request_counter.clear()
    tool(world, "read_page", url=f"{SITE}/install/linux")
    # address guards, the site's structure (one Query), its spaces (one BatchGetItem), then the revision,
    # the tree and the document: the page view's reads, nothing more
    assert request_counter == html


def test_a_post_anywhere_else_on_the_site_is_not_found(world: World):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    reply = world.api.gateway.dispatch("POST", "/sites/acme/docs/install", HEADERS, body)
    assert reply.status == 404
    assert world.get("/install").status == 200
