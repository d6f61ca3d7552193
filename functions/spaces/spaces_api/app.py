"""Spaces function: spaces, collections, their tree and their permissions; one router per sub-resource."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from spaces_api.routes import (
    collection_permissions,
    collections,
    org_collections,
    org_spaces,
    space_permissions,
    spaces,
    tree,
)

app = create_app("spaces")
app.include_router(org_spaces.router, prefix="/orgs/<organizationId>/spaces")
app.include_router(org_collections.router, prefix="/orgs/<organizationId>/collections")
app.include_router(spaces.router, prefix="/spaces/<spaceId>")
app.include_router(collections.router, prefix="/collections/<collectionId>")
app.include_router(tree.router)
app.include_router(space_permissions.router, prefix="/spaces/<spaceId>/permissions")
app.include_router(collection_permissions.router, prefix="/collections/<collectionId>/permissions")

lambda_handler = api_handler(app)
