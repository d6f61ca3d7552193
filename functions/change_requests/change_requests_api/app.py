"""Change requests function: branch, edit, review, update and merge content; PDF export.
(Reading and editing a change request's content is the content function's: content_api.) Also the
organization's MCP server (`POST /mcp`), whose writes are change requests'."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from change_requests_api.routes import change_requests, mcp, merges, org_change_requests, reviews

app = create_app("change_requests")
app.include_router(change_requests.router)
app.include_router(reviews.router)
app.include_router(merges.router)
app.include_router(org_change_requests.router)
app.include_router(mcp.router)

lambda_handler = api_handler(app)
