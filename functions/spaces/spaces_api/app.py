"""Spaces function: spaces, collections, their tree and their permissions; one router per sub-resource.

The permissions router is mounted under both a space and a collection (`spaces_api.target` tells them
apart from the path)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from spaces_api.routes import collections, org_collections, org_spaces, permissions, spaces, tree

app = create_app("spaces")
app.include_router(org_spaces.router, prefix="/orgs/<organizationId>/spaces")
app.include_router(org_collections.router, prefix="/orgs/<organizationId>/collections")
app.include_router(spaces.router, prefix="/spaces/<spaceId>")
app.include_router(collections.router, prefix="/collections/<collectionId>")
app.include_router(tree.router)
for target in ("/spaces/<spaceId>", "/collections/<collectionId>"):
    app.include_router(permissions.router, prefix=f"{target}/permissions")

lambda_handler = api_handler(app)
