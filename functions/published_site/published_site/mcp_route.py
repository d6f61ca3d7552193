"""`POST {site URL}/~gitbook/mcp`: the site's MCP server (bindery.engines.mcp_servers.site, docs/agents.md
"MCP"),
answered by the MCP SDK's Streamable HTTP transport (stateless, JSON responses). The site and the visitor
are decided by the one step the site's HTML pages take too; a site that refuses them refuses this too."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bindery.engines.site_pages.site_request import SiteRequest

MCP_SEGMENTS = ("~gitbook", "mcp")  # GitBook's path of a site's MCP server, below the site's URL


def answer(request: SiteRequest, headers: dict[str, str], body: str | None) -> dict[str, Any]:
    """A `POST` to the site: its MCP server, or a 404 for any other path (readers only ever GET)."""
    if request.segments[-len(MCP_SEGMENTS):] != MCP_SEGMENTS:
        return _json(404, json.dumps({"error": {"code": 404, "message": "Nothing to post to here."}}))
    # Imported here: the SDK costs the HTML pages' cold start nothing.
    from bindery.engines.mcp_servers import lambda_transport, site

    opened = site.open_site(replace(request, segments=request.segments[:-len(MCP_SEGMENTS)]))
    if isinstance(opened, site.SiteRefusal):
        return _json(opened.status, lambda_transport.refusal(opened.status, opened.message))
    path = "/" + "/".join(MCP_SEGMENTS)
    server = site.build(opened)
    exchange = lambda_transport.serve(server, method="POST", path=path, headers=headers, body=body)
    return {"statusCode": exchange.status, "body": exchange.body, "isBase64Encoded": False,
            "headers": {"Content-Type": exchange.headers.get("content-type", "application/json"),
                        "Cache-Control": "no-store", "X-Robots-Tag": "noindex"}}


def _json(status: int, body: str) -> dict[str, Any]:
    return {"statusCode": status, "body": body, "isBase64Encoded": False,
            "headers": {"Content-Type": "application/json", "Cache-Control": "no-store",
                        "X-Robots-Tag": "noindex"}}
