"""Sites function: docs sites and their site spaces, one router per sub-resource."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from sites_api.routes import site_spaces, sites

app = create_app("sites")
app.include_router(sites.router, prefix="/orgs/<organizationId>/sites")
app.include_router(site_spaces.router, prefix="/orgs/<organizationId>/sites/<siteId>/site-spaces")

lambda_handler = api_handler(app)
