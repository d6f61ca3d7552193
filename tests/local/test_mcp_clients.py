"""Both MCP servers driven by the official MCP client (the Python SDK's Streamable HTTP client and
`ClientSession`) against `make run`'s server, over real sockets: the organization's at `/v1/mcp` with the
bootstrap API token (list tools, search, read a page, open a change request, edit a page, merge, then read
the merged page through the REST API), and a published site's at `{site URL}/~gitbook/mcp`."""

from __future__ import annotations

import http.client
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.local.runner_process import call, import_repository


def _value(result: Any) -> Any:
    assert result.is_error is False, result
    structured = result.structured_content
    if structured is None:
        return result.content[0].text
    return structured["result"] if set(structured) == {"result"} else structured


async def _organization_session(url: str, token: str, org_id: str, space_id: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with (create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
                streamable_http_client(url, http_client=http) as (read, write),
                ClientSession(read, write) as session):
        started = await session.initialize()
        seen["server"] = started.server_info.name
        seen["tools"] = {tool.name for tool in (await session.list_tools()).tools}
        seen["search"] = _value(await session.call_tool("search_content",
                                                        {"organization_id": org_id, "query": "Welcome"}))
        seen["page"] = _value(await session.call_tool("read_page", {"space_id": space_id, "page_path": ""}))
        cr = _value(await session.call_tool("create_change_request",
                                            {"space_id": space_id, "subject": "Agent edit"}))
        pages = _value(await session.call_tool("list_pages", {"space_id": space_id,
                                                              "change_request_id": cr["id"]}))
        seen["path"] = pages[0]["path"]
        seen["edit"] = _value(await session.call_tool("update_page", {
            "space_id": space_id, "change_request_id": cr["id"], "page_id": pages[0]["id"],
            "markdown": "# Home\n\nRewritten by an agent.\n"}))
        seen["merge"] = _value(await session.call_tool("merge_change_request",
                                                       {"space_id": space_id, "change_request_id": cr["id"]}))
    return seen


async def _site_session(url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with (streamable_http_client(url) as (read, write), ClientSession(read, write) as session):
        started = await session.initialize()
        seen["instructions"] = started.instructions
        seen["tools"] = {tool.name for tool in (await session.list_tools()).tools}
        seen["hits"] = _value(await session.call_tool("search", {"query": "agent"}))
        seen["page"] = _value(await session.call_tool("read_page", {"url": seen["hits"][0]["url"]}))
        seen["resources"] = [str(r.uri) for r in (await session.list_resources()).resources]
    return seen


def test_the_official_client_works_through_both_servers(start_runner, tmp_path):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1")
    org_id = server.banner()["Organization id"]
    space_id, _ = import_repository(server, "known", tmp_path / "repo.git")
    origin = f"http://127.0.0.1:{server.port}"

    org = anyio.run(_organization_session, f"{origin}/v1/mcp", "known", org_id, space_id)
    assert org["server"] == "Bindery organization"
    assert {"search_content", "read_page", "create_change_request", "update_page",
            "merge_change_request"} <= org["tools"]
    assert [hit["space_id"] for hit in org["search"]] == [space_id]
    assert org["page"].startswith("# Home\n\nWelcome.")
    assert list(org["edit"]["pages"].values()) == ["updated_page"]
    assert org["merge"]["result"] == "merge"

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    merged_path = f"/v1/spaces/{space_id}/content/path/{org['path']}?format=markdown"
    status, merged = call(conn, "GET", merged_path, "known")
    assert status == 200, merged
    assert merged["markdown"].strip() == "Rewritten by an agent."
    status, site = call(conn, "POST", f"/v1/orgs/{org_id}/sites", "known",
                        {"title": "Agent Docs", "spaces": [space_id]})
    assert status == 201, site
    status, _ = call(conn, "PATCH", f"/v1/orgs/{org_id}/sites/{site['id']}", "known", {"basename": "docs"})
    assert status == 200
    status, _ = call(conn, "POST", f"/v1/orgs/{org_id}/sites/{site['id']}/publish", "known")
    assert status == 200
    conn.close()

    published = anyio.run(_site_session, f"{origin}/sites/{org_id}/docs/~gitbook/mcp")
    assert "Agent Docs" in published["instructions"]
    assert published["tools"] == {"search", "read_page"}
    assert published["page"] == "# Home\n\nRewritten by an agent.\n"
    page_url = f"{origin}/sites/{org_id}/docs/{org['path']}"
    assert [hit["url"] for hit in published["hits"]] == [page_url]
    assert published["resources"] == [f"{page_url}.md"]
