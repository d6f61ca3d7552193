"""OpenAPI function: an organization's OpenAPI specifications and their versions (docs/openapi.md)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from openapi_api.routes import specs, versions

app = create_app("openapi")
app.include_router(specs.router)
app.include_router(versions.router)

lambda_handler = api_handler(app)
