"""Change requests function: branch, edit, review, update and merge content; PDF export.
(Reading and editing a change request's content is the content function's: content_api.) Also the
organization's MCP server (`POST /mcp`), whose writes are change requests'. Listing, reading, editing
and reviewing are imported with the function; merges (with the PDF export), the organization's listing
and the MCP server on the first request that needs one (bindery.api.http.Resolver.include_later), or
before the snapshot under SnapStart."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from change_requests_api.routes import change_requests, reviews

app = create_app("change_requests")
app.include_router(change_requests.router)
app.include_router(reviews.router)
app.include_later(*(f"change_requests_api.routes.{name}"
                    for name in ("merges", "org_change_requests", "mcp")))

# What rare cases of the eager routes import on first need: a change request naming an issues cluster, a
# review with a comment (the comments area's domain and shapes).
app.import_before_snapshot("bindery.store.issue_clusters", "bindery.domain.comments.views",
                           "bindery.domain.comments.bodies", "bindery.api.wire.comments")

lambda_handler = api_handler(app)
