"""Comments function: comments, replies, reactions and commenters, on spaces and change requests.

One router per sub-resource, each mounted under both targets: the space and its change requests
(`comments_api.target` tells them apart from the path)."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from comments_api.routes import commenters, comments, replies

app = create_app("comments")
for target in ("/spaces/<spaceId>", "/spaces/<spaceId>/change-requests/<changeRequestId>"):
    app.include_router(comments.router, prefix=f"{target}/comments")
    app.include_router(replies.router, prefix=f"{target}/comments/<commentId>/replies")
    app.include_router(commenters.router, prefix=f"{target}/commenters")

lambda_handler = api_handler(app)
