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
app.include_router(sites.router, prefix="/orgs/<organizationId>/sites")
app.include_router(site_spaces.router, prefix="/orgs/<organizationId>/sites/<siteId>/site-spaces")
app.include_router(sections.router, prefix="/orgs/<organizationId>/sites/<siteId>/sections")
app.include_router(section_groups.router, prefix="/orgs/<organizationId>/sites/<siteId>/section-groups")
app.include_router(share_links.router, prefix="/orgs/<organizationId>/sites/<siteId>/share-links")
app.include_router(site_settings.router, prefix="/orgs/<organizationId>/sites/<siteId>")
app.include_router(site_integrations.router, prefix="/orgs/<organizationId>/sites/<siteId>")
app.include_router(publishing_auth.router, prefix="/orgs/<organizationId>/sites/<siteId>/publishing/auth")

lambda_handler = api_handler(app)
