"""The site's HTML: its pages, redirects, search results, files and stylesheets (docs/published-sites.md).
Last in app.ROUTES: it answers whatever no other route module holds."""

from __future__ import annotations

from bindery.engines.site_pages.page_view import serve
from bindery.engines.site_pages.site_request import Reply, SiteRequest


def route(request: SiteRequest) -> Reply | None:
    return serve(request)
