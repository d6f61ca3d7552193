"""Shared by the renderer tests: a link resolver for a site under `/site/`, document builders, and the
rendered HTML parsed back (lxml), so tests look at elements, never at the exact markup."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import lxml.html

from bindery.engines.content.markdown import markdown_to_document
from bindery.engines.site_pages.document_html import RenderedDocument, render_document


class Resolver:
    """Pages at /site/<id>, files at /files/<id>, spaces at /spaces/<id>; `unreachable` ids resolve to
    None; reusable contents from `reusable` (id → document); page titles from `titles` when given."""

    def __init__(
        self,
        *,
        reusable: Mapping[str, Mapping[str, Any]] | None = None,
        unreachable: frozenset[str] = frozenset(),
    ) -> None:
        self.reusable = dict(reusable or {})
        self.unreachable = unreachable

    def page_url(self, *, space_id: str | None, page_id: str, anchor: str | None) -> str | None:
        if page_id in self.unreachable:
            return None
        base = f"/spaces/{space_id}/{page_id}" if space_id else f"/site/{page_id}"
        return base + (f"#{anchor}" if anchor else "")

    def file_url(self, *, space_id: str | None, file_id: str) -> str | None:
        return None if file_id in self.unreachable else f"/files/{file_id}"

    def space_url(self, *, space_id: str) -> str | None:
        return None if space_id in self.unreachable else f"/spaces/{space_id}"

    def reusable_content(self, *, reusable_content_id: str) -> Mapping[str, Any] | None:
        return self.reusable.get(reusable_content_id)


class TitledResolver(Resolver):
    def page_title(self, *, space_id: str | None, page_id: str) -> str | None:
        return f"Title of {page_id}"


def render(document: Mapping[str, Any], **options: Any) -> RenderedDocument:
    links = options.pop("links", None) or Resolver()
    return render_document(document, links=links, **options)


def tree(document: Mapping[str, Any], **options: Any) -> Any:
    """The rendered body as an lxml element (a wrapping <div>)."""
    return parse(str(render(document, **options).html))


def parse(html: str) -> Any:
    return lxml.html.fragment_fromstring(html, create_parent="div")


def from_markdown(text: str, **options: Any) -> Any:
    return tree(markdown_document(text), **options)


def markdown_document(text: str) -> dict[str, Any]:
    """The document the Markdown converter reads `text` as (pages `x.md`, files under .gitbook/assets)."""
    return markdown_to_document(text, resolve_link=_resolve_link, resolve_file=_resolve_file).document


def _resolve_file(src: str) -> dict[str, Any] | None:
    prefix = ".gitbook/assets/"
    return {"kind": "file", "file": src.removeprefix(prefix)} if src.startswith(prefix) else None


def _resolve_link(url: str) -> dict[str, Any] | None:
    if url.startswith(".gitbook/assets/"):
        return {"kind": "file", "file": url.removeprefix(".gitbook/assets/")}
    if url.startswith(".gitbook/includes/") and url.endswith(".md"):
        return {"kind": "reusable-content", "reusableContent": url.removeprefix(".gitbook/includes/")[:-3]}
    if url.startswith("#") and len(url) > 1:
        return {"kind": "anchor", "anchor": url[1:]}
    path, _, anchor = url.partition("#")
    if path.endswith(".md") and "://" not in path:
        page = path[:-3]
        return (
            {"kind": "anchor", "page": page, "anchor": anchor} if anchor else {"kind": "page", "page": page}
        )
    return None


# --- document builders ---------------------------------------------------------------------------------
def text(value: str, *marks: Any) -> dict[str, Any]:
    leaf_marks = [mark if isinstance(mark, dict) else {"object": "mark", "type": mark} for mark in marks]
    return {"object": "text", "leaves": [{"object": "leaf", "text": value, "marks": leaf_marks}]}


def block(type_: str, nodes: list[Any] | None = None, **data: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"object": "block", "type": type_, "data": data}
    if nodes is not None:
        node["nodes"] = nodes
    return node


def inline(type_: str, nodes: list[Any] | None = None, **data: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"object": "inline", "type": type_, "data": data}
    if nodes is not None:
        node["nodes"] = nodes
    return node


def paragraph(*nodes: Any) -> dict[str, Any]:
    return block("paragraph", [text(n) if isinstance(n, str) else n for n in nodes])


def document(*blocks: Any) -> dict[str, Any]:
    return {"object": "document", "data": {}, "nodes": list(blocks)}
