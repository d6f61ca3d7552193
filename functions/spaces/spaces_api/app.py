"""Spaces function: spaces, collections, their tree and their permissions; one router per sub-resource.

Each permissions route is declared under both a space and a collection (`spaces_api.target` tells them
apart from the path)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from spaces_api.routes import collections, org_collections, org_spaces, permissions, spaces, tree

app = create_app("spaces")
app.include_router(org_spaces.router)
app.include_router(org_collections.router)
app.include_router(spaces.router)
app.include_router(collections.router)
app.include_router(tree.router)
app.include_router(permissions.router)

lambda_handler = api_handler(app)
