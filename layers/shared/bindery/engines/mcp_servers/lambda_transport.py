"""One HTTP request answered by an MCP server inside a Lambda invocation, through the SDK's own
Streamable HTTP transport (stateless, JSON responses): no ASGI server runs between invocations.

The SDK's session manager is an ASGI app; each request gets a fresh manager whose `run()` scope lasts
exactly as long as the request (the stateless mode keeps nothing between requests anyway), and the
request is fed to it as one ASGI `http` exchange. The protocol (JSON-RPC framing, initialize, version
negotiation, errors) is the SDK's; this module only carries bytes between API Gateway and ASGI.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings


@dataclass(frozen=True)
class HttpExchange:
    """What API Gateway hands over, and what goes back."""

    status: int
    headers: dict[str, str]
    body: str


def serve(server: MCPServer[Any], *, method: str, path: str, headers: Mapping[str, str],
          body: str | None) -> HttpExchange:
    """Answer one request to `server` (built for this request: its tools close over the caller)."""
    return anyio.run(_serve, server, method, path, headers, (body or "").encode())


async def _serve(server: MCPServer[Any], method: str, path: str, headers: Mapping[str, str],
                 body: bytes) -> HttpExchange:
    # The SDK's public way to mount a server (MCPServer.session_manager, made by streamable_http_app).
    # No DNS-rebinding check: that guards servers on a local port a browser page could reach; these sit
    # behind API Gateway on the stack's own hosts, and the organization's asks for an API token.
    server.streamable_http_app(stateless_http=True, json_response=True, streamable_http_path=path,
                               transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
    manager: StreamableHTTPSessionManager = server.session_manager
    scope: dict[str, Any] = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method.upper(),
        "scheme": "https", "path": path, "raw_path": path.encode(), "root_path": "", "query_string": b"",
        "headers": [(str(k).lower().encode("latin-1"), str(v).encode("latin-1")) for k, v in headers.items()],
        "server": ("lambda", 443), "client": None,
    }
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if delivered:
            return {"type": "http.disconnect"}
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    status = 500
    answer_headers: dict[str, str] = {}
    chunks: list[bytes] = []

    async def send(message: Mapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
            answer_headers.update({k.decode("latin-1"): v.decode("latin-1") for k, v in message["headers"]})
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))

    async with manager.run():
        await manager.handle_request(scope, receive, send)
    text = b"".join(chunks).decode()
    if status >= 400:
        text = refusal(status, _message(text))
        answer_headers["content-type"] = "application/json"
    return HttpExchange(status, answer_headers, text)


def refusal(status: int, message: str) -> str:
    """An HTTP-level refusal (the transport's: no JSON-RPC exchange took place) in a body both kinds of
    client read: a JSON-RPC error, whose `code` is the HTTP status as in every error of the API
    (`{"error": {"code", "message"}}`, bindery.platform.errors); the SDK writes some as plain text."""
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": status, "message": message}})


def _message(text: str) -> str:
    try:
        parsed = json.loads(text)
        return str(parsed["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return text.strip() or "Refused"
