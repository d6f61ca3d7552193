"""Content function: a space's revisions and everything in them (pages, documents, files, reusable
contents), current (`/spaces/{spaceId}/content…`), by revision (`/spaces/{spaceId}/revisions/{id}…`) or a
change request's (`…/change-requests/{id}/content…`): each reads route is declared under the three
paths (content_api.target tells them apart), beside the links, template, Git Sync and edit routers.
Every route module writes its full paths, so the routers are mounted without a prefix. Only the reads are
imported with the function: the other routers' modules (change request edits, Git Sync, templates,
links), which readers rarely call, are imported on the first request that needs one
(bindery.api.http.Resolver.include_later), or before the snapshot under SnapStart."""

from __future__ import annotations

import re
from typing import Any

from bindery.api.http import api_handler, create_app
from content_api.routes import reads, revisions

app = create_app("content")
for module in (reads, revisions):
    app.include_router(module.router)
app.include_later(*(f"content_api.routes.{name}" for name in (
    "links", "template", "git", "change_request_content", "change_request_links")))

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


# What rare cases of the eager routes import on first need (a computed page, a change request naming an
# issues cluster, a document read `?evaluated`, a merge's revision showing its change request): imported
# before a SnapStart snapshot.
app.import_before_snapshot("bindery.domain.openapi.reference_pages", "bindery.store.issue_clusters",
                           "bindery.domain.content_evaluation", "bindery.api.wire.change_requests")

lambda_handler = api_handler(app, prepare=escape_deep_page_path)
