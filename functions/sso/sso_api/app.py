"""SSO function: an organization's SAML providers (with an API token), and the SAML login endpoints
(without one), one router per sub-resource."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from sso_api.routes import logins, providers

app = create_app("sso")
app.include_router(providers.router)
app.include_router(logins.router)

lambda_handler = api_handler(app)
