"""Spaces function: spaces, collections, their tree and their permissions; one router per sub-resource.

Each permissions route is declared under both a space and a collection (`spaces_api.target` tells them
apart from the path). Moving and transferring content (the tree routes) and the permissions, which
readers and most editors never call, are imported on the first request that needs one
(bindery.api.http.Resolver.include_later), or before the snapshot under SnapStart: their domain modules
(transfers, grants and their listings) would cost every cold start their import."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from spaces_api.routes import collections, org_collections, org_spaces, spaces

app = create_app("spaces")
app.include_router(org_spaces.router)
app.include_router(org_collections.router)
app.include_router(spaces.router)
app.include_router(collections.router)
app.include_later("spaces_api.routes.tree", "spaces_api.routes.permissions")

# What rare cases of the eager routes import on first need (a space's duplicate copies its content; a
# change request naming an issues cluster): imported before a SnapStart snapshot.
app.import_before_snapshot("bindery.domain.revisions", "bindery.store.issue_clusters")

lambda_handler = api_handler(app)
