"""Search function: full-text search in a space or an organization, and link checks. The link checks,
rarer than searches, are imported on the first request that needs them (bindery.api.http.Resolver
.include_later), or before the snapshot under SnapStart: their content and wire modules would cost every
cold start their import."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from search_api.routes import search

app = create_app("search")
app.include_router(search.router)
app.include_later("search_api.routes.links")

lambda_handler = api_handler(app)
