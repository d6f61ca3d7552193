"""Sites function: docs sites, their structure, settings and share links, one router per sub-resource."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from sites_api.routes import (
    publishing_auth,
    section_groups,
    sections,
    share_links,
    site_integrations,
    site_settings,
    site_spaces,
    sites,
)

app = create_app("sites")
app.include_router(sites.router)
app.include_router(site_spaces.router)
app.include_router(sections.router)
app.include_router(section_groups.router)
app.include_router(share_links.router)
app.include_router(site_settings.router)
app.include_router(site_integrations.router)
app.include_router(publishing_auth.router)

lambda_handler = api_handler(app)
