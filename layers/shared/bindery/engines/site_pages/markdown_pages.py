"""A published page as GitBook-flavoured Markdown, for AI tools (docs/agents.md): the page's URL with
`.md` appended, and the site's MCP server's `read_page`. The Markdown is the Git Sync export's
(`bindery.engines.content.markdown.document_to_markdown`), written from the document this visitor reads: `if`
blocks decided by the visitor's claims as the HTML page decides them, reusable contents written in place,
expressions written as their values, links made absolute (pages of the same site space to their `.md`
URL). A first line points to the site's llms.txt.

The site is opened as for its HTML (`site_request.open_site`: the same 404s, 401s and fallback redirects),
read with the same requests (guards, the structure's Query, the spaces' BatchGetItem; cold, the revision,
tree and document), and a `.md` path that names no page is answered as the HTML route answers it (a
repository file's path still redirects to its page). `agentsContext: excluded` turns Markdown off.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bindery.domain.content_evaluation import evaluate_for_reader
from bindery.engines.content.tree import Tree
from bindery.engines.site_pages.links import SiteLinks, page_url
from bindery.engines.site_pages.page_tree import Found, find
from bindery.engines.site_pages.page_view import serve_open
from bindery.engines.site_pages.site_map import SiteMap, SiteSpaceLink, shown
from bindery.engines.site_pages.site_request import (
    OpenSite,
    Reply,
    SiteRequest,
    not_found,
    open_site,
    redirect,
)
from bindery.store import blobs
from bindery.store import revisions as revision_store

MARKDOWN = "text/markdown; charset=utf-8"
SUFFIX = ".md"
LLMS_TXT = "llms.txt"
MAX_INCLUDE_DEPTH = 3  # reusable contents inside reusable contents: deeper ones are left out (cycles)


def agents_allowed(opened: OpenSite) -> bool:
    """`agentsContext: excluded`: the site's Markdown, llms.txt and llms-full.txt are off."""
    return opened.structure.site.agents_context != "excluded"


def refused_to_agents() -> Reply:
    reply = not_found()
    reply.headers["X-Robots-Tag"] = "noindex"
    return reply


def markdown_url(url: str) -> str:
    """A page's URL (maybe with an anchor) as its Markdown's URL."""
    path, hash_mark, anchor = url.partition("#")
    return f"{path.rstrip('/')}{SUFFIX}{hash_mark}{anchor}"


def llms_txt_url(opened: OpenSite, site_map: SiteMap) -> str:
    return f"{opened.request.origin}{site_map.url('').rstrip('/')}/{LLMS_TXT}"


def readers_nodes(nodes: list[Any], scope: Mapping[str, Any],
                  included: Callable[[str], Mapping[str, Any] | None], depth: int = 0) -> list[Any]:
    """The blocks this visitor reads: an `if` block is its children when its condition holds for the
    visitor (as `rendering.layout.render_if` decides) and nothing otherwise; a reusable content is its
    document's blocks. Inline nodes are left as they are."""
    out: list[Any] = []
    for node in nodes:
        if not isinstance(node, Mapping) or node.get("object") != "block":
            out.append(node)
            continue
        kind, data = node.get("type"), node.get("data") or {}
        if kind == "if":
            if shown(str(data.get("expression") or "") or "false", scope):
                out += readers_nodes(list(node.get("nodes") or []), scope, included, depth)
            continue
        if kind == "reusable-content":
            ref = data.get("ref") or {}
            document = included(str(ref.get("reusableContent") or "")) if depth < MAX_INCLUDE_DEPTH else None
            if document is not None:
                out += readers_nodes(list(document.get("nodes") or []), scope, included, depth + 1)
            continue
        children = node.get("nodes")
        out.append({**node, "nodes": readers_nodes(list(children), scope, included, depth)}
                   if children else node)
    return out


def page_markdown(opened: OpenSite, links: SiteLinks, page: Mapping[str, Any],
                  document: Mapping[str, Any], *, source: str | None = None) -> str:
    """The page's Markdown as this visitor reads it, without the llms.txt line; `source`: a line naming
    the page's URL under its title (llms-full.txt)."""
    origin = opened.request.origin
    scope = {**opened.visitor.scope, "space": {"vars": dict(links.tree.variables)},
             "page": {"vars": dict(page.get("variables") or {})}}

    def page_path(ref: Mapping[str, Any]) -> str | None:
        kind = ref.get("kind")
        if kind in ("page", "anchor") and isinstance(ref.get("page"), str):
            url = links.page_url(space_id=ref.get("space"), page_id=ref["page"], anchor=ref.get("anchor"))
            if url is not None and links.shows_here(ref.get("space")):
                url = markdown_url(url)
        elif kind == "space" and isinstance(ref.get("space"), str):
            url = links.space_url(space_id=ref["space"])
        else:
            url = None
        return origin + url if url is not None else None

    def file_path(file_id: str) -> str | None:
        url = links.file_url(space_id=None, file_id=file_id)
        return origin + url if url is not None else None

    from bindery.engines.content.markdown import (
        document_to_markdown,  # markdown-it: only when Markdown is asked
    )

    readers = evaluate_for_reader({**document, "nodes": readers_nodes(
        list(document.get("nodes") or []), scope,
        lambda content_id: links.reusable_content(reusable_content_id=content_id))}, scope)
    text = document_to_markdown(readers, title=str(page.get("title") or ""), page_path=page_path,
                                file_path=file_path)
    under_title = [line for line in (f"Source: {source}" if source else "",
                                      str(page.get("description") or "").strip()) if line]
    if under_title:
        heading, _, body = text.partition("\n")
        text = heading + "\n\n" + "\n\n".join(under_title) + "\n" + body
    return text


def pointer(opened: OpenSite, site_map: SiteMap) -> str:
    """The line that heads every Markdown answer: where the index of the whole site is."""
    return f"> For the complete documentation index of this site, see {llms_txt_url(opened, site_map)}\n\n"


def serve_markdown(request: SiteRequest) -> Reply:
    """`{page URL}.md`: the page's Markdown, or what the HTML route answers for the path."""
    opened = open_site(request)
    if isinstance(opened, Reply):
        return opened
    if not agents_allowed(opened):
        return opened.finish(refused_to_agents())
    rest = opened.address.rest
    site_map = opened.site_map()
    named = _named_page(site_map, rest)
    if named is None:
        return serve_open(opened, rest, site_map)
    variant, tree, found = named
    if found.redirect is not None:
        target = markdown_url(page_url(variant, found.redirect))
        return opened.finish(redirect(target, 301, opened.visitor.cache_control))
    return opened.finish(_page_reply(opened, site_map, variant, tree, found.page or {}))


def _named_page(site_map: SiteMap, rest: tuple[str, ...]) -> tuple[SiteSpaceLink, Tree, Found] | None:
    """The page (or group) a `.md` path names, with its site space and tree; None when it names none.
    Only a page path has Markdown: any other `.md` path is the HTML route's (a repository file's path
    redirects to its page there, as before; a path with `.md` in the site's own reference names no page)."""
    if not rest or not rest[-1].endswith(SUFFIX):
        return None
    return page_at(site_map, (*rest[:-1], rest[-1][:-len(SUFFIX)]))


def page_at(site_map: SiteMap, rest: tuple[str, ...]) -> tuple[SiteSpaceLink, Tree, Found] | None:
    """The page (or group) at a page path of the site (below its base), with its site space and tree;
    None when the path names none."""
    place = site_map.place(rest)
    space = place.variant.space if place is not None else None
    revision = revision_store.get_revision(space.id, space.revision or "") if space is not None else None
    if place is None or revision is None:
        return None
    tree = revision_store.load_tree(revision)
    if place.page_path and tree.page_by_path(place.page_path) is None:
        return None
    found = find(tree, place.page_path)
    return (place.variant, tree, found) if found.page is not None or found.redirect is not None else None


def read_page(opened: OpenSite, site_map: SiteMap, rest: tuple[str, ...]) -> str | None:
    """The Markdown of the page at a page path, as `{page URL}.md` answers it but without its llms.txt
    line (a group is its first page, as its `.md` URL redirects there); None when the path names none.
    The site's MCP server reads pages here."""
    named = page_at(site_map, rest)
    if named is None:
        return None
    variant, tree, found = named
    page = found.page
    if found.redirect is not None:
        located = tree.page_by_path(found.redirect)
        page = located.entry if located is not None else None
    return _markdown(opened, site_map, variant, tree, page) if page is not None else None


def _markdown(opened: OpenSite, site_map: SiteMap, variant: SiteSpaceLink, tree: Tree,
              page: Mapping[str, Any]) -> str:
    document = blobs.get_value(variant.space.id, page["documentId"]) if page.get("documentId") else {}
    return page_markdown(opened, SiteLinks(site_map, variant, tree), page, document)


def _page_reply(opened: OpenSite, site_map: SiteMap, variant: SiteSpaceLink, tree: Tree,
                page: Mapping[str, Any]) -> Reply:
    text = pointer(opened, site_map) + _markdown(opened, site_map, variant, tree, page)
    headers = {"Cache-Control": opened.visitor.cache_control, "Vary": "Cookie"}
    if page.get("noRobotsIndex") or page.get("noIndex"):
        headers["X-Robots-Tag"] = "noindex"
    return Reply(200, text, MARKDOWN, headers)
