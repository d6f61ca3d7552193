"""Content function: a space's revisions and everything in them (pages, documents, files, reusable
contents), current (`/spaces/{spaceId}/content…`), by revision (`/spaces/{spaceId}/revisions/{id}…`) or a
change request's (`…/change-requests/{id}/content…`): one reads router mounted under the three prefixes
(content_api.target tells them apart), beside the links, template, Git Sync and edit routers."""

from __future__ import annotations

import re
from typing import Any

from bindery.api.http import api_handler, create_app
from content_api.routes import (
    change_request_content,
    change_request_links,
    git,
    links,
    reads,
    revisions,
    template,
)

REVISION = "/spaces/<spaceId>/revisions/<revisionId>"
CHANGE_REQUEST = "/spaces/<spaceId>/change-requests/<changeRequestId>"

app = create_app("content")
for prefix in ("/spaces/<spaceId>/content", REVISION, f"{CHANGE_REQUEST}/content"):
    app.include_router(reads.router, prefix=prefix)
app.include_router(revisions.router, prefix=REVISION)
for router in (links.router, template.router, git.router):
    app.include_router(router, prefix="/spaces/<spaceId>")
for router in (change_request_content.router, change_request_links.router):
    app.include_router(router, prefix=CHANGE_REQUEST)

# A page path has slashes (`getting-started/install`) and the official client sends them as they are.
# Routes match one segment per parameter, so the rest of the path is escaped into that one segment
# (pages.py unescapes it).
DEEP_PAGE_PATH = re.compile(
    r"^(/spaces/[^/]+/(?:content|revisions/[^/]+|change-requests/[^/]+/content)/path/)([^/]+/.*)$")


def escape_deep_page_path(event: dict[str, Any]) -> dict[str, Any]:
    match = DEEP_PAGE_PATH.match(event.get("path") or "")
    if match:
        return {**event, "path": match.group(1) + match.group(2).replace("/", "%2F")}
    return event


lambda_handler = api_handler(app, prepare=escape_deep_page_path)
