"""The two MCP servers (docs/agents.md "MCP"): the organization's on the API (`POST /v1/mcp`) and every
published site's (`{site URL}/~gitbook/mcp`), both on the official MCP SDK, one HTTP request at a time."""
