"""One request to a published site, up to the visitor: the site its address names and whether this
visitor may read it (docs/published-sites.md, "Addresses" and "Visibility"). Every answer of a site —
its HTML pages, their Markdown, llms.txt — opens the site here, so they all refuse alike: an unknown or
unpublished site, or a share-link site without its key, is a 404; a visitor-auth site without a valid
token a 401 (or a redirect to its fallback URL).

Reads: the address's guard(s) (GetItem each) and the site's structure (one Query).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bindery.domain.sites.views import readable
from bindery.engines.site_pages import html
from bindery.engines.site_pages.addresses import SiteAddress, locate
from bindery.engines.site_pages.site_map import SiteMap
from bindery.engines.site_pages.visibility import SiteHidden, Visitor, VisitorRefused, visitor_of
from bindery.store import site_structure
from bindery.store.site_structure import Structure

HTML = "text/html; charset=utf-8"
PLAIN_HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$")


@dataclass(frozen=True)
class SiteRequest:
    host: str
    stage_prefix: str  # the path the readers' API is served under ("/sites"; "" on a custom domain)
    segments: tuple[str, ...]
    query: Mapping[str, str]
    cookie_header: str | None = None
    if_none_match: str | None = None
    secure: bool = False

    @property
    def origin(self) -> str:
        """`scheme://host` as the reader addressed the site: what absolute links start with. A `Host`
        that is not a plain host name or address (with a port) gives "" (links relative to the site's
        root) rather than an origin a request could choose, such as `127.0.0.1:3000@elsewhere`."""
        return f"{'https' if self.secure else 'http'}://{self.host}" if PLAIN_HOST.match(self.host) else ""


@dataclass
class Reply:
    status: int
    body: str = ""
    content_type: str = HTML
    headers: dict[str, str] = field(default_factory=dict)
    cookies: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class OpenSite:
    """A site this visitor may read."""

    request: SiteRequest
    address: SiteAddress
    structure: Structure
    visitor: Visitor

    def finish(self, reply: Reply) -> Reply:
        """What every answer of the site carries: the visitor's cookies, and `noindex` unless public."""
        reply.cookies += self.visitor.cookies
        if not self.visitor.indexable:
            reply.headers["X-Robots-Tag"] = "noindex"
        return reply

    def site_map(self) -> SiteMap:
        """The site as this visitor sees it: its sections and site spaces whose spaces have content (one
        BatchGetItem of the spaces: their current revisions)."""
        structure = self.structure
        spaces = {space_id: space for space_id, (space, _) in
                  readable(None, structure, structure.site_spaces).items() if space.revision}
        return SiteMap(structure, spaces, self.address.base, self.visitor.scope)


def bare(status: int, heading: str, message: str) -> Reply:
    return Reply(status, html.render("bare.html", heading=heading, message=message),
                 headers={"Cache-Control": "no-store"})


def not_found() -> Reply:
    return bare(404, "Page not found", "There is no page at this address.")


def redirect(location: str, status: int = 302, cache: str = "no-store") -> Reply:
    return Reply(status, "", headers={"Location": location, "Cache-Control": cache})


def open_site(request: SiteRequest) -> OpenSite | Reply:
    """The site and its visitor, or the refusal to send instead (404, 401 or a fallback redirect)."""
    address = locate(request.host, request.stage_prefix, list(request.segments))
    structure = site_structure.structure(address.site_id) if address else None
    if address is None or structure is None or (address.org_id and structure.site.org_id != address.org_id):
        return not_found()
    try:
        visitor = visitor_of(structure, query=request.query, cookie_header=request.cookie_header,
                             base=address.base, secure=request.secure)
    except SiteHidden:
        return not_found()
    except VisitorRefused as refused:
        if refused.fallback_url:
            return redirect(refused.fallback_url)
        return bare(401, "Sign-in required", "This site is only for signed-in readers: open it from the "
                    "link your sign-in gave you.")
    return OpenSite(request, address, structure, visitor)
