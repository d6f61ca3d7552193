"""One request to a published site, answered (docs/published-sites.md): the site its address names,
whether this visitor may read it, where the path leads, and the page — or a redirect, a search results
page, a file, a 304, a 401 or a 404.

A page view reads the address's guard(s) (GetItem each), the site's structure (one Query), the spaces it
shows (one BatchGetItem: their current revisions), then the revision, its tree and the page's document:
immutable, so cached in the process after their first read (store.revisions, store.blobs).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from bindery.domain.sites.customization import site_space_settings
from bindery.engines.content.tree import page_flag
from bindery.engines.site_pages import html
from bindery.engines.site_pages.chrome import chrome, page_actions
from bindery.engines.site_pages.links import INTERNAL, SiteLinks, page_url
from bindery.engines.site_pages.page_tree import find, neighbours
from bindery.engines.site_pages.site_map import Place, SiteMap
from bindery.engines.site_pages.site_request import (
    OpenSite,
    Reply,
    SiteRequest,
    not_found,
    open_site,
    redirect,
)
from bindery.engines.site_pages.visibility import Visitor
from bindery.store import blobs
from bindery.store import revisions as revision_store
from bindery.store.revisions import Revision
from bindery.store.site_structure import Structure

# Changes whenever the markup of a page changes for the same content, so cached copies are not reused.
RENDER_VERSION = "2"


def content_security_policy(*, frames: bool) -> str:
    """Every answer's policy: pages carry no script at all, and nothing may frame them. `frames`: the
    page may frame https pages (the embeds of a site whose customization allows them, framed sandboxed);
    otherwise `default-src 'none'` refuses frames too (docs/published-sites.md)."""
    framing = "frame-src https:; " if frames else ""
    return ("default-src 'none'; img-src * data:; style-src 'self' 'unsafe-inline'; "
            f"{framing}form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


def serve(request: SiteRequest) -> Reply:
    segments = request.segments
    if len(segments) >= 2 and segments[-2] == INTERNAL and segments[-1] in html.STATIC:
        # The stylesheets are the same for every site: no read at all.
        return Reply(200, html.static(segments[-1]), "text/css; charset=utf-8",
                     {"Cache-Control": "public, max-age=3600"})
    opened = open_site(request)
    return opened if isinstance(opened, Reply) else serve_open(opened, opened.address.rest)


def serve_open(opened: OpenSite, rest: tuple[str, ...], site_map: SiteMap | None = None) -> Reply:
    """The HTML answer for `rest` (the path below the site's root) on a site the visitor may read
    (`site_map`: the visitor's, when the caller has it already)."""
    return opened.finish(_serve_site(opened, rest, site_map or opened.site_map()))


@dataclass
class _View:
    request: SiteRequest
    structure: Structure
    visitor: Visitor
    site_map: SiteMap
    place: Place
    revision: Revision
    settings: dict[str, Any]

    @property
    def links(self) -> SiteLinks:
        return SiteLinks(self.site_map, self.place.variant, revision_store.load_tree(self.revision))

    def etag(self, *parts: Any) -> str:
        """Everything a page shows beyond its revision: the site's structure and settings, the spaces'
        revisions and titles, and the visitor's claims when they decide what is shown."""
        structure = self.structure
        facts = [RENDER_VERSION, structure.site.updated_at, self.revision.id, self.settings,
                 sorted((s.id, s.path, s.position, s.condition, s.title, s.group, s.default_site_space)
                        for s in structure.sections),
                 sorted((g.id, g.title, g.position, g.parent) for g in structure.groups),
                 sorted((ss.id, ss.path, ss.position, ss.condition, ss.section)
                        for ss in structure.site_spaces),
                 sorted((s.id, s.title, s.revision) for s in self.site_map.spaces.values()),
                 self.visitor.claims, self.request.query.get("theme"), *parts]
        digest = hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()
        return f'"{digest[:32]}"'

    def cache_control(self) -> str:
        return self.visitor.cache_control


def _serve_site(opened: OpenSite, rest: tuple[str, ...], site_map: SiteMap) -> Reply:
    internal_route = rest[rest.index(INTERNAL) + 1:] if INTERNAL in rest else None
    place = site_map.place(rest[:rest.index(INTERNAL)] if internal_route is not None else rest)
    if place is None:
        return not_found()
    space = place.variant.space
    revision = revision_store.get_revision(space.id, space.revision)
    if revision is None:
        return not_found()
    structure = opened.structure
    view = _View(opened.request, structure, opened.visitor, site_map, place,
                 revision, site_space_settings(structure, place.variant.site_space.id))
    if internal_route is not None:
        return _internal(view, internal_route)
    return _page(view)


def _internal(view: _View, route: tuple[str, ...]) -> Reply:
    tree = revision_store.load_tree(view.revision)
    if route == ("search",):
        return _search(view)
    if len(route) == 2 and route[0] == "page":
        path = tree.path_of(route[1])
        return redirect(page_url(view.place.variant, path)) if path is not None else _page_not_found(view)
    if len(route) == 2 and route[0] == "files":
        entry = tree.file(route[1])
        if entry is None or not entry.get("digest"):
            return _page_not_found(view)
        # A fresh presigned URL each time: the page linking here stays cacheable for longer than one.
        return redirect(blobs.file_url(view.revision.space_id, entry["digest"], name=entry["name"],
                                        content_type=entry["contentType"]), cache="private, max-age=300")
    return _page_not_found(view)


def _page(view: _View) -> Reply:
    tree = revision_store.load_tree(view.revision)
    found = find(tree, view.place.page_path)
    if found.redirect is not None:
        # Cached as the page would be: a shared cache never keeps a non-public site's answers.
        return redirect(page_url(view.place.variant, found.redirect), 301, view.cache_control())
    if found.page is None:
        return _page_not_found(view)
    page = found.page
    etag = view.etag(page["id"])
    embeds = _embeds_allowed(view.structure)
    headers = {"ETag": etag, "Cache-Control": view.cache_control(), "Vary": "Cookie",
               "Content-Security-Policy": content_security_policy(frames=embeds)}
    if view.request.if_none_match and etag in [tag.strip() for tag in view.request.if_none_match.split(",")]:
        return Reply(304, "", headers=headers)
    from bindery.engines.site_pages.document_html import (
        render_document,  # Pygments and friends, on first page
    )

    document = blobs.get_value(view.revision.space_id, page["documentId"]) if page.get("documentId") else {}
    # A page's variables of another shape (a hand edit: the tree's check does not cover them) are none.
    page_vars = page.get("variables")
    scope = {**view.visitor.scope, "space": {"vars": dict(tree.variables)},
             "page": {"vars": dict(page_vars) if isinstance(page_vars, Mapping) else {}}}
    links = view.links
    rendered = render_document(document, links=links, allow_embeds=embeds, scope=scope)
    previous, following = neighbours(tree, page["id"])
    context = chrome(view, tree, page["id"], links)
    body = html.render(
        "page.html", **context, page_title=page.get("title") or "", description=page.get("description"),
        body=rendered.html, headings=rendered.headings, **page_actions(view, tree.path_of(page["id"]) or ""),
        previous=_neighbour(view, tree, previous), next=_neighbour(view, tree, following))
    if page_flag(page, "noRobotsIndex") or page_flag(page, "noIndex"):
        body = body.replace("<head>", '<head>\n<meta name="robots" content="noindex">', 1)
        headers["X-Robots-Tag"] = "noindex"
    return Reply(200, body, headers=headers)


def _neighbour(view: _View, tree: Any, entry: Mapping[str, Any] | None) -> dict[str, str] | None:
    if entry is None or not view.settings.get("pagination", {}).get("enabled", True):
        return None
    return {"title": str(entry.get("title") or ""),
            "url": page_url(view.place.variant, tree.path_of(entry["id"]) or "")}


def _embeds_allowed(structure: Structure) -> bool:
    """Embeds become (sandboxed) frames only on a site whose admin saved a customization with advanced
    customization on; a site never customized shows them as links."""
    saved = structure.customization or {}
    return bool((saved.get("advancedCustomization") or {}).get("enabled"))


def _page_not_found(view: _View) -> Reply:
    tree = revision_store.load_tree(view.revision)
    context = chrome(view, tree, None, view.links)
    body = html.render("message.html", **context, heading="Page not found",
                       message="There is no page at this address.")
    return Reply(404, body, headers={"Cache-Control": "no-store"})


def _search(view: _View) -> Reply:
    """The whole site as this visitor sees it (at most MAX_PARTS site spaces), or with `scope=current`
    the site space shown alone."""
    # Imported on a reader's first search, rarer than page views: it brings the search engine and
    # SQLite, a cost of every cold start otherwise (bench/README.md, "Cold start").
    from bindery.engines.site_pages.site_search import MAX_PARTS, search_parts, site_parts
    tree = revision_store.load_tree(view.revision)
    query = view.request.query.get("q", "")
    every = site_parts(view.site_map, view.place)  # the current site space first
    narrowed = view.request.query.get("scope") == "current"
    parts = every[:1] if narrowed else every[:MAX_PARTS]
    found = search_parts(parts, query)
    labelled = len(parts) > 1
    hits = [{"title": hit.title, "url": page_url(part.variant, hit.path),
             "label": part.label if labelled else "",
             "sections": [{"title": s.title, "body": s.body,
                           "url": page_url(part.variant, hit.path, s.anchor)}
                          for s in hit.sections if s.title or s.body]}
            for part, hit in ((found_hit.part, found_hit.hit) for found_hit in found.hits)]
    context = chrome(view, tree, None, view.links)
    search_url = context["search_url"]
    scopes = {"current_label": every[0].label or every[0].variant.title,
              "current_url": f"{search_url}?{urlencode({'q': query, 'scope': 'current'})}"
              if len(every) > 1 and not narrowed else None,
              "site_url": f"{search_url}?{urlencode({'q': query})}" if len(every) > 1 and narrowed else None,
              "left_out": 0 if narrowed else len(every) - len(parts)}
    body = html.render("search.html", **{**context, "query": query}, hits=hits, count=found.count, **scopes)
    return Reply(200, body, headers={"Cache-Control": "private, no-cache"})
