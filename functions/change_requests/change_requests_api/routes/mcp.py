"""`POST /mcp`: the organization's MCP server (bindery.engines.mcp_servers.organization, docs/agents.md#mcp).
The request is JSON-RPC, answered by the MCP SDK's Streamable HTTP transport (stateless, JSON responses); the
caller is the API token's, as on every REST route, and each tool calls the REST routes' domain functions.
It lives in this function because its writes are change requests'."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.route_params import Who

router = Router()

MCP_PATH = "/mcp"


# JSON-RPC 2.0's two answers (the MCP SDK writes them; MCP is not part of GitBook's OpenAPI).
_JSON_RPC_ID = {"type": ["string", "integer", "null"]}
JSON_RPC_ANSWER = {"oneOf": [
    {"type": "object", "required": ["jsonrpc", "id", "result"],
     "properties": {"jsonrpc": {"const": "2.0"}, "id": _JSON_RPC_ID, "result": {"type": "object"}}},
    {"type": "object", "required": ["jsonrpc", "error"],
     "properties": {"jsonrpc": {"const": "2.0"}, "id": _JSON_RPC_ID,
                    "error": {"type": "object", "required": ["code", "message"],
                              "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}}},
]}


@router.post(MCP_PATH, description="The organization's MCP server: Model Context Protocol over Streamable "
             "HTTP (stateless, JSON responses), for the caller of the API token (docs/agents.md#mcp).",
             responses={200: {"description": "A JSON-RPC response (MCP)",
                              "content": {"application/json": {"schema": JSON_RPC_ANSWER}}},
                        202: {"description": "A JSON-RPC notification, accepted"}})
def mcp(who: Who) -> Response[str]:
    # Imported here: the SDK (Starlette, pydantic models of the protocol) costs the other routes nothing.
    from bindery.engines.mcp_servers import lambda_transport, organization

    event = router.current_event
    answer = lambda_transport.serve(organization.build(who), method="POST", path=MCP_PATH,
                                    headers=dict(event.headers or {}), body=event.decoded_body)
    content_type = answer.headers.get("content-type", "application/json")
    return Response(status_code=answer.status, content_type=content_type, body=answer.body,
                    headers={"Cache-Control": "no-store"})
