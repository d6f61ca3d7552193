"""Sites function: docs sites, their structure, settings and share links, one router per sub-resource.
A site's share links, its integrations and its publishing authentication, which editors rarely call, are
imported on the first request that needs one (bindery.api.http.Resolver.include_later), or before the
snapshot under SnapStart: their domain modules (integrations above all) would cost every cold start their
import."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from sites_api.routes import section_groups, sections, site_settings, site_spaces, sites

app = create_app("sites")
app.include_router(sites.router)
app.include_router(site_spaces.router)
app.include_router(sections.router)
app.include_router(section_groups.router)
app.include_router(site_settings.router)
app.include_later("sites_api.routes.share_links", "sites_api.routes.site_integrations",
                  "sites_api.routes.publishing_auth")

app.import_before_snapshot("bindery.domain.integrations.content_installs")  # a site's deletion

lambda_handler = api_handler(app)
