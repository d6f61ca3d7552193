"""The block types as HTML: text blocks, lists, quotes, hints, tabs, steppers, expandables, columns,
content refs, reusable content, adaptive `if` blocks; code, media and tables have modules of their own."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from markupsafe import Markup

from bindery.engines.site_pages.rendering.code import render_code
from bindery.engines.site_pages.rendering.context import attributes
from bindery.engines.site_pages.rendering.layout import (
    render_columns,
    render_expandable,
    render_if,
    render_stepper,
    render_tabs,
)
from bindery.engines.site_pages.rendering.media import (
    render_drawing,
    render_file,
    render_image,
    render_images,
)
from bindery.engines.site_pages.rendering.nodes import Node, children, data_of, fragments, string, text_of
from bindery.engines.site_pages.rendering.references import (
    render_content_ref,
    render_embed,
    render_integration,
    render_openapi,
    render_reusable_content,
)
from bindery.engines.site_pages.rendering.tables import render_table

if TYPE_CHECKING:
    from bindery.engines.site_pages.rendering.context import RenderContext

# The page title is the page's <h1>: a document's headings start at <h2>.
HEADINGS = {"heading-1": (1, Markup("h2")), "heading-2": (2, Markup("h3")), "heading-3": (3, Markup("h4"))}
ALIGNMENTS = frozenset({"start", "center", "end"})
HINT_STYLES = frozenset({"info", "success", "warning", "danger"})


def _align(node: Node) -> str | None:
    align = data_of(node).get("align")
    return f"bd-align-{align}" if align in ALIGNMENTS else None


def _paragraph(context: RenderContext, node: Node) -> Markup:
    return Markup("<p{}>{}</p>").format(attributes(css=_align(node)), context.inlines(node.get("nodes")))


def _heading(context: RenderContext, node: Node) -> Markup:
    level, tag = HEADINGS[str(node.get("type"))]
    anchor = context.heading_id(node)
    context.headings.append((anchor, " ".join(text_of(node).split()), level))
    return Markup('<{0}{1}>{2}<a class="bd-anchor" href="#{3}" aria-label="Link to this section">#</a></{0}>'
                  ).format(tag, attributes(id=anchor, css=_align(node)), context.inlines(node.get("nodes")),
                           anchor)


def _list(context: RenderContext, node: Node) -> Markup:
    kind = node.get("type")
    start = data_of(node).get("start")
    tag = Markup("ol") if kind == "list-ordered" else Markup("ul")
    attrs = attributes(
        start=start if kind == "list-ordered" and isinstance(start, int) and not isinstance(start, bool)
        and start != 1 else None,
        css="bd-tasks" if kind == "list-tasks" else None)
    items = Markup("").join(_list_item(context, item, tasks=kind == "list-tasks") for item in children(node))
    return Markup("<{0}{1}>{2}</{0}>").format(tag, attrs, items)


def _list_item(context: RenderContext, node: Node, *, tasks: bool = False) -> Markup:
    box = Markup("")
    if tasks:
        box = Markup('<input type="checkbox" disabled{}> ').format(
            Markup(" checked") if data_of(node).get("checked") is True else Markup(""))
    return Markup("<li>{}{}</li>").format(box, context.blocks(node.get("nodes")))


def _blockquote(context: RenderContext, node: Node) -> Markup:
    return Markup("<blockquote>{}</blockquote>").format(context.blocks(node.get("nodes")))


def _hint(context: RenderContext, node: Node) -> Markup:
    style = data_of(node).get("style")
    style = style if style in HINT_STYLES else "info"
    return Markup('<div class="bd-hint bd-hint-{}" role="note">{}</div>').format(
        style, context.blocks(node.get("nodes")))


def _divider(context: RenderContext, node: Node) -> Markup:
    return Markup("<hr>")


def _math(context: RenderContext, node: Node) -> Markup:
    return Markup('<pre class="bd-math"><code>{}</code></pre>').format(
        string(data_of(node).get("formula")) or "")


def _unknown(context: RenderContext, node: Node) -> Markup:
    """A block type this renderer does not know: its text, so nothing the author wrote is lost."""
    nodes = children(node)
    inline = any(child.get("object") in ("text", "inline") for child in nodes)
    body = Markup("<p>{}</p>").format(context.inlines(nodes)) if inline else context.blocks(nodes)
    for item in fragments(node):
        body += context.blocks(item.get("nodes"))
    return Markup('<div class="bd-block">{}</div>').format(body) if body else body


BLOCKS: dict[str, Callable[[RenderContext, Node], Markup]] = {
    "paragraph": _paragraph, "heading-1": _heading, "heading-2": _heading, "heading-3": _heading,
    "list-unordered": _list, "list-ordered": _list, "list-tasks": _list, "list-item": _list_item,
    "blockquote": _blockquote, "hint": _hint, "divider": _divider, "math": _math,
    "code": render_code, "code-line": lambda context, node: render_code(context, {"nodes": [node]}),
    "expandable": render_expandable, "tabs": render_tabs, "stepper": render_stepper,
    "columns": render_columns, "if": render_if,
    "images": render_images, "image": render_image, "drawing": render_drawing, "file": render_file,
    "embed": render_embed, "content-ref": render_content_ref, "reusable-content": render_reusable_content,
    "swagger": render_openapi, "openapi-operation": render_openapi, "openapi-schemas": render_openapi,
    "openapi-webhook": render_openapi, "integration": render_integration, "table": render_table,
}


def render_block(context: RenderContext, node: Node) -> Markup:
    if node.get("object") in ("text", "inline"):  # inline content where blocks belong: as a paragraph
        return Markup("<p>{}</p>").format(context.inlines([node]))
    return BLOCKS.get(str(node.get("type")), _unknown)(context, node)


