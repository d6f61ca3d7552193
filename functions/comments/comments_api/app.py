"""Comments function: comments, replies, reactions and commenters, on spaces and change requests.

One router per sub-resource, each route declared under both targets, written out: the space and its
change requests (`comments_api.target` tells them apart from the path)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from comments_api.routes import commenters, comments, replies

app = create_app("comments")
for module in (comments, replies, commenters):
    app.include_router(module.router)

app.import_before_snapshot("bindery.store.issue_clusters")  # a change request naming an issues cluster

lambda_handler = api_handler(app)
