"""Conversations function: ingesting an organization's conversations, and reading them with the issues
and clusters of issues the conversations worker finds in them (docs/conversations.md)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from conversations_api.routes import clusters, conversations, issues

app = create_app("conversations")
app.include_router(conversations.router, prefix="/orgs/<organizationId>/conversations")
app.include_router(issues.router, prefix="/orgs/<organizationId>/conversations-issues")
app.include_router(clusters.router, prefix="/orgs/<organizationId>/conversations-clusters")

lambda_handler = api_handler(app)
