"""Conversations function: ingesting an organization's conversations, and reading them with the issues
and clusters of issues the conversations worker finds in them (docs/conversations.md)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from conversations_api.routes import clusters, conversations, issues

app = create_app("conversations")
app.include_router(conversations.router)
app.include_router(issues.router)
app.include_router(clusters.router)

lambda_handler = api_handler(app)
