"""What one rendering of a document knows: the link resolver, the anchors already taken, the headings
and annotation notes met so far, the reusable contents being included, and how deep it is."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from markupsafe import Markup, escape

from bindery.engines.content.expressions import UNKNOWN, ExpressionError, evaluate_expression, truthy
from bindery.engines.content.links import anchor_of
from bindery.engines.site_pages.rendering.nodes import Node, children, data_of, text_of
from bindery.engines.site_pages.rendering.urls import is_external, safe_url

# Deeper than this, a node shows its text only: hostile nesting must not exhaust the stack.
MAX_DEPTH = 40
# A reusable content may include another; a cycle stops at the first repeat, a chain at this length.
MAX_INCLUDES = 5
_ANONYMOUS: Mapping[str, Any] = {"space": {"vars": {}}, "page": {"vars": {}}, "visitor": {"claims": {}}}


class LinkResolver(Protocol):
    """The site's URLs for what a document refers to. None: not reachable, the text stays plain."""

    def page_url(self, *, space_id: str | None, page_id: str, anchor: str | None) -> str | None: ...

    def file_url(self, *, space_id: str | None, file_id: str) -> str | None: ...

    def space_url(self, *, space_id: str) -> str | None: ...

    def reusable_content(self, *, reusable_content_id: str) -> Mapping[str, Any] | None:
        """The reusable content's document, rendered inline where it is included, or None."""
        ...

    # Optional, looked up when present (a resolver without them still works):
    #   page_title(*, space_id: str | None, page_id: str) -> str | None: what mentions and content-ref
    #       cards call a page (else the last segment of its URL);
    #   file_name(*, space_id: str | None, file_id: str) -> str | None: what file links say (else the
    #       last segment of the file's URL).


# How one node becomes HTML: `blocks.render_block` and `inlines.render_inline`, handed in by
# `document_html` so that this module, which every node module imports, imports none of them.
NodeRenderer = Callable[["RenderContext", Node], Markup]


class RenderContext:
    def __init__(self, *, links: LinkResolver, allow_embeds: bool, scope: Mapping[str, Any] | None,
                 render_block: NodeRenderer, render_inline: NodeRenderer) -> None:
        self.links = links
        self._render_block = render_block
        self._render_inline = render_inline
        self.allow_embeds = allow_embeds
        self.scope: Mapping[str, Any] = scope if scope is not None else _ANONYMOUS
        self.headings: list[tuple[str, str, int]] = []
        self.notes: list[tuple[str, str, Markup]] = []  # (note id, reference id, body) of each annotation
        self.including: list[str] = []
        self.depth = 0
        self._taken: set[str] = set()

    # --- rendering children (the node modules call back here) -----------------------------------------
    def blocks(self, nodes: Any) -> Markup:
        return self._nested(nodes, self._render_block)

    def inlines(self, nodes: Any) -> Markup:
        return self._nested(nodes, self._render_inline)

    def _nested(self, nodes: Any, render: NodeRenderer) -> Markup:
        if self.depth >= MAX_DEPTH:
            return escape(" ".join(text_of(node) for node in children({"nodes": nodes})))
        self.depth += 1
        try:
            return Markup("").join(render(self, node) for node in children({"nodes": nodes}))
        finally:
            self.depth -= 1

    def notes_html(self) -> Markup:
        """The annotations' notes, numbered as their references in the text, each linking back."""
        if not self.notes:
            return Markup("")
        items = Markup("").join(
            Markup('<li id="{}">{}<a class="bd-note-back" href="#{}" aria-label="Back to the text">↩</a></li>'
                   ).format(note_id, body, ref_id) for note_id, ref_id, body in self.notes)
        return Markup('<section class="bd-notes"><ol>{}</ol></section>').format(items)

    # --- anchors ----------------------------------------------------------------------------------------
    def unique_id(self, wanted: str) -> str:
        """`wanted`, or `wanted-1`, `-2`… when the page already has it (the first one keeps the id links
        to it expect)."""
        candidate, suffix = wanted, 0
        while candidate in self._taken:
            suffix += 1
            candidate = f"{wanted}-{suffix}"
        self._taken.add(candidate)
        return candidate

    def heading_id(self, node: Mapping[str, Any]) -> str:
        """A heading's anchor: its `data.id`, its `meta.id`, else the slug GitBook gives its text (the one
        `bindery.engines.content.links` checks anchors against)."""
        meta = node.get("meta")
        for explicit in (data_of(node).get("id"), meta.get("id") if isinstance(meta, Mapping) else None):
            if isinstance(explicit, str) and explicit.strip():
                return self.unique_id(explicit.strip())
        return self.unique_id(anchor_of(text_of(node)) or "section")

    # --- references -------------------------------------------------------------------------------------
    def ref_url(self, ref: Any) -> str | None:  # noqa: PLR0911
        """Where a `ContentRef` leads on the site (checked by `urls.safe_url`), or None."""
        if not isinstance(ref, Mapping):
            return None
        kind = ref.get("kind")
        space = ref.get("space") if isinstance(ref.get("space"), str) else None
        if kind == "url":
            return safe_url(ref.get("url"))
        if kind == "page" and isinstance(ref.get("page"), str):
            return safe_url(self.links.page_url(space_id=space, page_id=ref["page"], anchor=None))
        if kind == "anchor" and isinstance(ref.get("anchor"), str):
            anchor = ref["anchor"]
            if isinstance(ref.get("page"), str):
                return safe_url(self.links.page_url(space_id=space, page_id=ref["page"], anchor=anchor))
            return safe_url("#" + anchor)
        if kind == "file" and isinstance(ref.get("file"), str):
            return safe_url(self.links.file_url(space_id=space, file_id=ref["file"]))
        if kind == "space" and space is not None:
            return safe_url(self.links.space_url(space_id=space))
        return None

    def named(self, capability: str, **keys: str | None) -> str | None:
        """What the resolver's optional `page_title(space_id=, page_id=)` or `file_name(space_id=,
        file_id=)` says, or None (a resolver without it, or without an answer)."""
        lookup = getattr(self.links, capability, None)
        value = lookup(**keys) if callable(lookup) else None
        return value if isinstance(value, str) and value.strip() else None

    def link(self, url: str | None, content: Markup, *, css: str | None = None,
             title: str | None = None) -> Markup:
        """`<a>` around `content` when `url` is set (external ones with `rel="noopener noreferrer"`);
        without a URL, the content alone (in a span when it carries a class)."""
        if url is None:
            return Markup('<span class="{}">{}</span>').format(css, content) if css else content
        return Markup("<a{}>{}</a>").format(attributes(
            href=url, rel="noopener noreferrer" if is_external(url) else None, css=css, title=title), content)

    # --- adaptive content -------------------------------------------------------------------------------
    def value(self, source: Any) -> Any:
        """An expression's value in the scope; UNKNOWN when it cannot be evaluated."""
        try:
            return evaluate_expression(source, self.scope) if isinstance(source, str) else UNKNOWN
        except (ExpressionError, RecursionError, ArithmeticError, ValueError):
            return UNKNOWN

    def condition(self, source: Any) -> bool:
        value = self.value(source)
        return value is not UNKNOWN and truthy(value)


def attributes(*, css: str | None = None, **values: str | int | bool | None) -> Markup:
    """` name="value"` for each set value, escaped (`css` is the `class`; `_` in a name is `-`);
    True writes the bare attribute, None and False leave it out."""
    pairs = [("class", css), *((name.replace("_", "-"), value) for name, value in values.items())]
    out = Markup("")
    for name, value in pairs:
        if value is None or value is False:
            continue
        out += Markup(" {}").format(name) if value is True else Markup(' {}="{}"').format(name, value)
    return out
