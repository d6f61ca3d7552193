"""A published site's MCP server (`{site URL}/~gitbook/mcp`, docs/agents-mcp.md): search the site and read
its pages as Markdown, for the visitor the HTML would serve, no more.

The site is opened exactly as a page view opens it (bindery.site_pages.page_view): its address, its
structure, the visitor (share key, visitor token and its claims: unpublished, a share-link site without
its key, and a missing or invalid token all refuse here too), and the site map those decide (sections,
site spaces and their adaptive conditions). On top of that, `agentsContext: excluded` or the
customization's `pageActions.mcp` off answer 404, as GitBook's does.

Page resources are the pages of the site space the MCP URL names (its default one at the site's root),
listed from the tree a page read loads anyway; any other page is read by URL through the `read_page` tool
or the `{page URL}.md` resource template.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import FunctionResource

from bindery.domain.content_evaluation import evaluate_for_reader
from bindery.domain.sites.customization import site_settings
from bindery.domain.sites.views import readable
from bindery.site_pages.addresses import locate
from bindery.site_pages.links import page_url
from bindery.site_pages.page_tree import find, reading_order
from bindery.site_pages.site_map import Place, SiteMap
from bindery.site_pages.site_search import MAX_PARTS, search_parts, site_parts
from bindery.site_pages.visibility import SiteHidden, VisitorRefused, visitor_of
from bindery.store import blobs, site_structure
from bindery.store import revisions as revision_store
from bindery.store.site_structure import Structure

MARKDOWN = "text/markdown"


@dataclass(frozen=True)
class SiteRefusal:
    """Why the site has no MCP server for this request: 404 (none) or 401 (a visitor token is needed)."""

    status: int
    message: str


@dataclass(frozen=True)
class OpenSite:
    structure: Structure
    site_map: SiteMap
    place: Place
    origin: str  # scheme and host of the site's URLs: an agent is given absolute URLs
    scope: Mapping[str, Any]  # the visitor's claims, which decide a page's `if` blocks and expressions


def open_site(*, host: str, stage_prefix: str, segments: tuple[str, ...], query: Mapping[str, str],
              cookie_header: str | None, secure: bool) -> OpenSite | SiteRefusal:
    """The site at the path before `/~gitbook/mcp`, as this visitor may read it, or why not."""
    address = locate(host, stage_prefix, list(segments))
    structure = site_structure.structure(address.site_id) if address else None
    if address is None or structure is None or (address.org_id and structure.site.org_id != address.org_id):
        return SiteRefusal(404, "There is no site at this address.")
    if structure.site.agents_context == "excluded" or not _mcp_action(site_settings(structure)):
        return SiteRefusal(404, "This site has no MCP server.")
    try:
        visitor = visitor_of(structure, query=query, cookie_header=cookie_header, base=address.base,
                             secure=secure)
    except SiteHidden:
        return SiteRefusal(404, "There is no site at this address.")
    except VisitorRefused:
        return SiteRefusal(401, "This site is only for signed-in readers: add their visitor token.")
    spaces = {space_id: space for space_id, (space, _) in
              readable(None, structure, structure.site_spaces).items() if space.revision}
    site_map = SiteMap(structure, spaces, address.base, visitor.scope)
    place = site_map.place(address.rest)
    if place is None:
        return SiteRefusal(404, "This site shows nothing.")
    return OpenSite(structure, site_map, place, f"{'https' if secure else 'http'}://{host}", visitor.scope)


def _mcp_action(settings: Mapping[str, Any]) -> bool:
    actions = settings.get("pageActions")
    return not isinstance(actions, Mapping) or actions.get("mcp", True) is not False


def _page_markdown(site: OpenSite, url: str) -> str | None:
    """The Markdown of the page at `url` (absolute, or a path of the site; `.md` allowed), or None."""
    path = urlsplit(url).path
    path = path[:-3] if path.endswith(".md") else path
    base = site.site_map.base
    if not (path == base or path.startswith(f"{base}/") or not base):
        return None
    rest = tuple(part for part in path[len(base):].split("/") if part)
    place = site.site_map.place(rest)
    if place is None:
        return None
    space = place.variant.space
    revision = revision_store.get_revision(space.id, space.revision)
    if revision is None:
        return None
    tree = revision_store.load_tree(revision)
    found = find(tree, place.page_path)
    page = found.page
    if found.redirect is not None:
        located = tree.page_by_path(found.redirect)
        page = located.entry if located else None
    if page is None:
        return None
    from bindery.content.markdown import document_to_markdown  # markdown-it and its plugins, on first use

    document = blobs.get_value(revision.space_id, page["documentId"]) if page.get("documentId") else {}
    # Decided for this visitor as the HTML page decides it: content behind a condition they do not meet
    # never reaches them, in Markdown either.
    scope = {**site.scope, "space": {"vars": dict(tree.variables)},
             "page": {"vars": dict(page.get("variables") or {})}}
    shown = evaluate_for_reader(document or {}, scope)
    return document_to_markdown(shown, title=str(page.get("title") or ""))


def build(site: OpenSite) -> MCPServer[Any]:
    title = site.structure.site.title
    home = site.origin + site.site_map.url("")
    server: MCPServer[Any] = MCPServer(
        title or "Documentation", log_level="WARNING", website_url=home,
        instructions=(f"The documentation site \"{title}\" ({home}). Use search to find pages, then "
                      "read_page with a page's URL for its content as Markdown."))

    # async: on the request's thread, as the organization's tools (organization.py says why)
    @server.tool()
    async def search(query: str) -> list[dict[str, Any]]:
        """Search the site's pages; each hit has the page's title, URL and matching sections."""
        parts = site_parts(site.site_map, site.place)[:MAX_PARTS]
        found = search_parts(parts, query)
        return [{"title": hit.hit.title, "url": site.origin + page_url(hit.part.variant, hit.hit.path),
                 "sections": [{"title": section.title, "body": section.body}
                              for section in hit.hit.sections if section.title or section.body]}
                for hit in found.hits]

    @server.tool()
    async def read_page(url: str) -> str:
        """A page of the site as Markdown, by its URL (from search, or as a reader sees it)."""
        markdown = _page_markdown(site, url)
        if markdown is None:
            raise ToolError(f"No page of this site at {url}")
        return markdown

    _add_page_resources(server, site)
    return server


def _add_page_resources(server: MCPServer[Any], site: OpenSite) -> None:
    variant = site.place.variant
    revision = revision_store.get_revision(variant.space.id, variant.space.revision)
    if revision is None:
        return
    tree = revision_store.load_tree(revision)

    def reader(url: str) -> Any:
        async def read() -> str:  # async: on the request's thread, as the tools (organization.py)
            return _page_markdown(site, url) or ""
        return read

    for entry in reading_order(tree):
        url = site.origin + page_url(variant, tree.path_of(entry["id"]) or "")
        server.add_resource(FunctionResource(uri=f"{url}.md", name=str(entry.get("title") or url),
                                             description=entry.get("description"), mime_type=MARKDOWN,
                                             fn=reader(url)))

