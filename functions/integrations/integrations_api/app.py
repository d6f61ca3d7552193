"""Integrations function: publishing integrations, their installations on organizations, spaces and
sites, and the listings an organization, a space and a site have of them (docs/integrations.md)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from integrations_api.routes import content_installs, installations, integrations, listings

app = create_app("integrations")
app.include_router(integrations.router)
app.include_router(installations.router)
app.include_router(content_installs.router)
app.include_router(listings.router)

lambda_handler = api_handler(app)
