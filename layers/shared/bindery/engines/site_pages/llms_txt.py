"""`/llms.txt` and `/llms-full.txt` of a published site, at its root (docs/agents.md).

- `llms.txt` (https://llmstxt.org): `# {site title}`, a `> ` summary (the first page's description, when
  it has one), then a `## ` section per part of the site this visitor sees (a section, or a site space of
  it when it has several; a site space on a site without sections), listing each page of the navigation
  (hidden pages left out, as in the sidebar) as `- [title](its .md URL): description`.
- `llms-full.txt`: every page's Markdown in navigation order, hidden pages included (as GitBook does),
  each headed by its URL. Bounded by `MAX_FULL_BYTES` (docs/decisions.md): documents are read one
  BatchGetItem per 100 pages, and reading stops at the cap; the file then ends by saying how many pages
  it left out and where they are (their `.md` URLs, listed in llms.txt).

Both open the site as its HTML does (`site_request.open_site`), so they refuse exactly where it refuses,
and list only the sections and site spaces the visitor's claims show.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bindery.domain.sites.customization import site_settings
from bindery.engines.content.tree import Tree
from bindery.engines.site_pages.links import SiteLinks, page_url
from bindery.engines.site_pages.markdown_pages import (
    LLMS_TXT,
    agents_allowed,
    markdown_url,
    page_markdown,
    pointer,
    refused_to_agents,
)
from bindery.engines.site_pages.page_view import serve_open
from bindery.engines.site_pages.site_map import SiteMap, SiteSpaceLink
from bindery.engines.site_pages.site_request import OpenSite, Reply, SiteRequest, open_site
from bindery.store import revisions as revision_store

LLMS_FULL_TXT = "llms-full.txt"
TEXT = "text/plain; charset=utf-8"
# Lambda answers API Gateway with at most 6 MB of JSON (the body escaped in it: newlines and quotes
# double): 4 MB of Markdown leaves room for that, and a page past it is never read.
MAX_FULL_BYTES = 4_000_000
BRACKETS = str.maketrans("[]", "()")
BATCH = 100  # pages whose documents are read together (one BatchGetItem)


@dataclass(frozen=True)
class _Part:
    label: str
    variant: SiteSpaceLink
    tree: Tree


def _parts(site_map: SiteMap) -> Iterator[_Part]:
    """The site spaces this visitor sees, in navigation order, with their current trees."""
    labelled = [(s.section.title + (f": {v.title}" if len(s.variants) > 1 else ""), v)
                for s in site_map.sections for v in s.variants]
    labelled += [(v.title, v) for v in site_map.root_variants]
    for label, variant in labelled:
        revision = revision_store.get_revision(variant.space.id, variant.space.revision or "")
        if revision is not None:
            yield _Part(label, variant, revision_store.load_tree(revision))


def _documents(pages: list[Mapping[str, Any]], *, hidden: bool) -> list[Mapping[str, Any]]:
    """The document pages in navigation order (depth first); hidden ones (and what is below them) only
    when `hidden`."""
    out: list[Mapping[str, Any]] = []
    for entry in pages:
        if entry.get("hidden") and not hidden:
            continue
        if entry.get("type") == "document":
            out.append(entry)
        if entry.get("type") in ("document", "group"):
            out += _documents(list(entry.get("pages") or []), hidden=hidden)
    return out


def _opened(request: SiteRequest, name: str) -> OpenSite | Reply:
    opened = open_site(request)
    if isinstance(opened, Reply):
        return opened
    if opened.address.rest != (name,):  # only at the site's root; elsewhere it is a page path
        return serve_open(opened, opened.address.rest)
    return opened if agents_allowed(opened) else opened.finish(refused_to_agents())


def _reply(opened: OpenSite, text: str) -> Reply:
    return opened.finish(Reply(200, text, TEXT, {"Cache-Control": opened.visitor.cache_control,
                                                 "Vary": "Cookie"}))


def _title(opened: OpenSite) -> str:
    return str(site_settings(opened.structure).get("title") or opened.structure.site.title or "Documentation")


def _line(text: str) -> str:
    """Text on one line of Markdown (a title or a description in a list item)."""
    return " ".join(str(text).split())


def serve_llms_txt(request: SiteRequest) -> Reply:
    opened = _opened(request, LLMS_TXT)
    if isinstance(opened, Reply):
        return opened
    origin = opened.request.origin
    site_map = opened.site_map()
    parts = list(_parts(site_map))
    full_url = f"{origin}{site_map.url('').rstrip('/')}/{LLMS_FULL_TXT}"
    first = _documents(parts[0].tree.pages, hidden=False)[:1] if parts else []
    title = _line(_title(opened))
    summary = (_line(first[0].get("description") or "") if first else "") or f"The documentation of {title}."
    lines = [f"# {title}", "", f"> {summary}", "",
             "Each link below is a page as Markdown (the page's URL with `.md` appended); "
             f"[{LLMS_FULL_TXT}]({full_url}) has every page's Markdown in one file.", ""]
    for part in parts:
        lines += [f"## {_line(part.label)}", ""]
        for page in _documents(part.tree.pages, hidden=False):
            url = markdown_url(origin + page_url(part.variant, part.tree.path_of(page["id"]) or ""))
            # A link's text holds no brackets (the format's parsers end it at the first `]`).
            name = _line(page.get("title") or "").translate(BRACKETS) or "Untitled"
            description = _line(page.get("description") or "")
            lines.append(f"- [{name}]({url})" + (f": {description}" if description else ""))
        lines.append("")
    return _reply(opened, "\n".join(lines))


def serve_llms_full_txt(request: SiteRequest) -> Reply:
    opened = _opened(request, LLMS_FULL_TXT)
    if isinstance(opened, Reply):
        return opened
    site_map = opened.site_map()
    out = [pointer(opened, site_map)]
    size, written, left_out = len(out[0].encode()), 0, 0
    for part in _parts(site_map):
        pages = _documents(part.tree.pages, hidden=True)
        links = SiteLinks(site_map, part.variant, part.tree)
        for start in range(0, len(pages), BATCH):
            if size >= MAX_FULL_BYTES:
                left_out += len(pages) - start
                break
            batch = pages[start:start + BATCH]
            documents = revision_store.documents(part.variant.space.id,
                                                 [p["documentId"] for p in batch if p.get("documentId")])
            for number, page in enumerate(batch):
                url = opened.request.origin + page_url(part.variant, part.tree.path_of(page["id"]) or "")
                document = documents.get(str(page.get("documentId")), {})
                text = page_markdown(opened, links, page, document, source=url) + "\n---\n\n"
                if size + len(text.encode()) > MAX_FULL_BYTES:
                    left_out += len(batch) - number
                    size = MAX_FULL_BYTES
                    break
                out.append(text)
                size += len(text.encode())
                written += 1
    if left_out:
        out.append(f"> This file stops after {written} pages, at its size limit: the {left_out} other pages "
                   f"are each at their own `.md` URL, all listed in {LLMS_TXT}.\n")
    return _reply(opened, "".join(out))
