"""Search function: full-text search in a space or an organization, and link checks."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from search_api.routes import links, search

app = create_app("search")
app.include_router(search.router)
app.include_router(links.router)

lambda_handler = api_handler(app)
