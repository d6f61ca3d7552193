"""A published site's MCP server (`{site URL}/~gitbook/mcp`, docs/agents.md "MCP"): search the site and
read its pages as Markdown, for the visitor the HTML would serve, no more.

The site is opened by the one step every answer of a site takes (`site_request.open_site`: its address,
its structure, the visitor's share key or visitor token and its claims), so this server refuses exactly
where the HTML pages refuse; on top of that, `agentsContext: excluded` or the customization's
`pageActions.mcp` off answer 404, as GitBook's does. A page is read as its `{page URL}.md` answers it
(`markdown_pages.read_page`: the same Markdown, decided for the same visitor).

Page resources are the pages of the site space the MCP URL names (its default one at the site's root),
listed from the tree a page read loads anyway; any other page is read by URL through the `read_page` tool
or the `{page URL}.md` resource template.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import FunctionResource

from bindery.domain.sites.customization import site_settings
from bindery.engines.site_pages import markdown_pages
from bindery.engines.site_pages.links import page_url
from bindery.engines.site_pages.page_tree import reading_order
from bindery.engines.site_pages.site_map import Place, SiteMap
from bindery.engines.site_pages.site_request import OpenSite, Reply, SiteRequest
from bindery.engines.site_pages.site_request import open_site as open_for_visitor
from bindery.engines.site_pages.site_search import MAX_PARTS, search_parts, site_parts
from bindery.store import revisions as revision_store

MARKDOWN = "text/markdown"


@dataclass(frozen=True)
class SiteRefusal:
    """Why the site has no MCP server for this request: 404 (none) or 401 (a visitor token is needed)."""

    status: int
    message: str


@dataclass(frozen=True)
class McpSite:
    opened: OpenSite
    site_map: SiteMap
    place: Place

    @property
    def origin(self) -> str:
        """Scheme and host of the site's URLs: an agent is given absolute URLs."""
        return self.opened.request.origin


def open_site(request: SiteRequest) -> McpSite | SiteRefusal:
    """The site at `request`'s path (the part before `/~gitbook/mcp`), as this visitor may read it, or
    why not. Where the HTML would redirect a visitor without a valid token to the site's fallback URL,
    an agent is told it needs one (401): a redirect to a sign-in page means nothing to it."""
    opened = open_for_visitor(request)
    if isinstance(opened, Reply):
        if opened.status == 404:
            return SiteRefusal(404, "There is no site at this address.")
        return SiteRefusal(401, "This site is only for signed-in readers: add their visitor token.")
    actions = site_settings(opened.structure).get("pageActions") or {}
    if not markdown_pages.agents_allowed(opened) or actions.get("mcp", True) is False:
        return SiteRefusal(404, "This site has no MCP server.")
    site_map = opened.site_map()
    place = site_map.place(opened.address.rest)
    if place is None:
        return SiteRefusal(404, "This site shows nothing.")
    return McpSite(opened, site_map, place)


def _page_markdown(site: McpSite, url: str) -> str | None:
    """The Markdown of the page at `url` (absolute, or a path of the site; `.md` allowed), or None."""
    path = urlsplit(url).path
    path = path[:-len(markdown_pages.SUFFIX)] if path.endswith(markdown_pages.SUFFIX) else path
    base = site.site_map.base
    if base and not (path == base or path.startswith(f"{base}/")):
        return None
    rest = tuple(part for part in path[len(base):].split("/") if part)
    return markdown_pages.read_page(site.opened, site.site_map, rest)


def build(site: McpSite) -> MCPServer[Any]:
    title = site.opened.structure.site.title
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


def _add_page_resources(server: MCPServer[Any], site: McpSite) -> None:
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

