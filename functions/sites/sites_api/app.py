"""Sites function: docs sites, their structure, settings and share links, one router per sub-resource.
The reads and listings are included when the function loads; what editors rarely call (creating,
changing, deleting and publishing a site, adding, moving and removing its site spaces and sections,
section groups, customization, the adaptive schema, share links, the site's integrations, publishing
authentication) is imported on the first request that needs it (bindery.api.http.Resolver.include_later),
or before the snapshot under SnapStart: those routes' models, request bodies and domain modules would
otherwise cost every cold start their import."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from sites_api.routes import published, sections, site_spaces, sites

app = create_app("sites")
app.include_router(sites.router)
app.include_router(site_spaces.router)
app.include_router(sections.router)
app.include_router(published.router)
app.include_later("sites_api.routes.site_lifecycle", "sites_api.routes.structure_edits",
                  "sites_api.routes.site_space_customization", "sites_api.routes.section_groups",
                  "sites_api.routes.site_customization", "sites_api.routes.share_links",
                  "sites_api.routes.site_integrations", "sites_api.routes.publishing_auth")

# A site's deletion (its integration setups go, with their events); the scripts of a published site with
# integrations installed (their store).
app.import_before_snapshot("bindery.domain.integrations.content_installs",
                           "bindery.domain.integrations.events", "bindery.store.integrations")

lambda_handler = api_handler(app)
