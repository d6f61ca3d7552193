"""What every page of a site shows around its content: title, logo, primary colour and theme, the
announcement, the sections, the site spaces beside the current one, the page tree, the search box and
the footer — from the site space's customization (docs/published-sites.md, "Customization").

Settings are checked before they reach the page: a colour must be a hex colour (it lands in a `<style>`
element, where HTML escaping is no defence), a URL must be http(s).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from bindery.engines.content.tree import Tree
from bindery.engines.site_pages.links import INTERNAL, SiteLinks, internal, page_url
from bindery.engines.site_pages.page_tree import navigation
from bindery.engines.site_pages.site_map import GroupLink, Place, SectionLink, SiteMap
from bindery.engines.site_pages.visibility import Visitor
from bindery.store.site_structure import Structure


class _Asked(Protocol):
    @property
    def query(self) -> Mapping[str, str]: ...
    @property
    def origin(self) -> str: ...


class ShownPage(Protocol):
    """What the chrome reads of the page being served (page_view's view of one request): declared here,
    so that page_view, which calls `chrome`, is the only one of the two importing the other."""

    @property
    def request(self) -> _Asked: ...
    @property
    def structure(self) -> Structure: ...
    @property
    def visitor(self) -> Visitor: ...
    @property
    def site_map(self) -> SiteMap: ...
    @property
    def place(self) -> Place: ...
    @property
    def settings(self) -> Mapping[str, Any]: ...

COLOR = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
DEFAULT_COLOR = "#346DDB"
THEMES = ("light", "dark")


def _color(value: Any) -> str:
    return value if isinstance(value, str) and COLOR.match(value) else DEFAULT_COLOR


def _url(value: Any) -> str | None:
    return value if isinstance(value, str) and re.match(r"^https?://[^\s\"'<>]+$", value) else None


def _link(to: Any, links: SiteLinks) -> str | None:
    """A customization's ContentRef: a URL, or a page of the space shown."""
    if not isinstance(to, Mapping):
        return None
    if to.get("kind") == "url":
        return _url(to.get("url"))
    if to.get("kind") == "page" and isinstance(to.get("page"), str):
        return links.page_url(space_id=to.get("space"), page_id=to["page"], anchor=to.get("anchor"))
    return None


def _sections(entries: list[SectionLink | GroupLink], current: SectionLink | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for entry in entries:
        if isinstance(entry, GroupLink):
            out.append({"title": entry.title, "children": _sections(entry.children, current)})
        else:
            out.append({"title": entry.section.title, "url": entry.url,
                        "current": current is not None and entry.section.id == current.section.id})
    return out


def _theme(view: ShownPage) -> str:
    asked = view.request.query.get("theme")
    themes = view.settings.get("themes") or {}
    if asked in THEMES and themes.get("toggeable", True):
        return str(asked)
    return str(themes.get("default")) if themes.get("default") in THEMES else "light"


MCP_PATH = "~gitbook/mcp"  # GitBook's address of a site's MCP server, below the site's root


def page_actions(view: ShownPage, page_path: str) -> dict[str, str | None]:
    """The page's links for AI tools, as the customization's `pageActions` asks (docs/agents.md): "View
    as Markdown" (the page's `.md` URL) and "Connect with MCP" (the site's MCP server). None when off,
    and both off on a site whose `agentsContext` is `excluded`."""
    actions = view.settings.get("pageActions") or {}
    agents = view.structure.site.agents_context != "excluded"
    root = f"{view.request.origin}{view.site_map.url('').rstrip('/')}"
    markdown = agents and actions.get("markdown", True)
    return {"markdown_url": page_url(view.place.variant, page_path).rstrip("/") + ".md" if markdown else None,
            "mcp_url": f"{root}/{MCP_PATH}" if agents and actions.get("mcp", True) else None}


def chrome(view: ShownPage, tree: Tree, current_page: str | None, links: SiteLinks) -> dict[str, Any]:
    settings = view.settings
    variant = view.place.variant
    theme = _theme(view)
    primary = (settings.get("styling") or {}).get("primaryColor") or {}
    logo = ((settings.get("header") or {}).get("logo") or {}).get(theme)
    announcement = settings.get("announcement") or {}
    footer = settings.get("footer") or {}

    def link_url(entry: Mapping[str, Any]) -> tuple[str | None, bool]:
        target = entry.get("target")
        url = _link(target, links)
        return url, bool(isinstance(target, Mapping) and target.get("kind") == "url")

    return {
        "theme": theme,
        "indexable": view.visitor.indexable,
        "site_title": settings.get("title") or view.structure.site.title,
        "primary_light": _color(primary.get("light")),
        "primary_dark": _color(primary.get("dark")),
        "logo": _url(logo),
        "announcement": {"message": str(announcement.get("message") or ""),
                         "style": announcement.get("style") if announcement.get("style") in
                         ("info", "warning", "danger", "success") else "info",
                         "url": _link((announcement.get("link") or {}).get("to"), links)}
        if announcement.get("enabled") and announcement.get("message") else None,
        "home_url": view.site_map.url(""),
        "assets": f"{view.site_map.url('').rstrip('/')}/{INTERNAL}",
        "search_url": internal(variant.url, "search"),
        "query": None,
        "sections": _sections(view.site_map.top, view.place.section),
        "variants": [{"title": v.title, "url": v.url, "current": v.site_space.id == variant.site_space.id}
                     for v in view.place.variants],
        "tree": navigation(tree, current_page, lambda path: page_url(variant, path), link_url),
        "footer_groups": [
            {"title": str(group.get("title") or ""),
             "links": [{"title": str(link.get("title") or ""), "url": url}
                       for link in group.get("links") or [] if (url := _link(link.get("to"), links))]}
            for group in footer.get("groups") or [] if isinstance(group, Mapping)],
        "copyright": footer.get("copyright"),
    }
