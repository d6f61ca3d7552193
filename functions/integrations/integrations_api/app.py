"""Integrations function: publishing integrations, their installations on organizations, spaces and
sites, and the listings an organization, a space and a site have of them (docs/integrations.md).
Publishing, events, installations and their setups on spaces and sites, which developers and admins
rarely call, are imported on the first request that needs one (bindery.api.http.Resolver.include_later),
or before the snapshot under SnapStart: their models show spaces and sites, and their domain modules
reach the event queue and the secret box, which the reads and listings need not import."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from integrations_api.routes import integrations, listings

app = create_app("integrations")
app.include_router(integrations.router)
app.include_router(listings.router)
app.include_later("integrations_api.routes.publishing", "integrations_api.routes.events",
                  "integrations_api.routes.installations", "integrations_api.routes.content_installs")

lambda_handler = api_handler(app)
