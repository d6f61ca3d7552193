"""Text, marks and inline nodes (links, mentions, buttons, emoji, icons, expressions, math, images,
annotations) as HTML."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from markupsafe import Markup, escape

from bindery.engines.content.expressions import UNKNOWN, js_string
from bindery.engines.site_pages.rendering.context import attributes
from bindery.engines.site_pages.rendering.nodes import (
    Node,
    children,
    data_of,
    fragment,
    leaves,
    string,
    text_of,
)

if TYPE_CHECKING:
    from bindery.engines.site_pages.rendering.context import RenderContext

# The spec's marks, outermost first (bindery.engines.content.markdown.model.MARK_ORDER), and their elements.
MARK_TAGS = (("strikethrough", Markup("s")), ("italic", Markup("em")), ("bold", Markup("strong")),
             ("code", Markup("code")), ("keyboard", Markup("kbd")), ("superscript", Markup("sup")),
             ("subscript", Markup("sub")))
# `DocumentTextColor` values; `$primary` and the hint colours follow the site's theme.
COLORS = {"green": "green", "blue": "blue", "red": "red", "orange": "orange", "yellow": "yellow",
          "purple": "purple", "$primary": "primary", "$info": "info", "$success": "success",
          "$warning": "warning", "$danger": "danger"}
BUTTON_KINDS = frozenset({"primary", "secondary"})
_SECTION_SEPARATOR = "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"  # between a title and an anchor


def text_html(text: str, *, breaks: bool = True) -> Markup:
    """Escaped text; a line break in it (Markdown's `\\`) is a `<br>` outside code."""
    if not breaks:
        return escape(text)
    return Markup("<br>").join(escape(line) for line in text.split("\n"))


def _color_classes(mark: Mapping[str, Any]) -> str | None:
    data = data_of(mark)
    text, background = COLORS.get(str(data.get("text"))), COLORS.get(str(data.get("background")))
    classes = ([f"bd-color-{text}"] if text else []) + ([f"bd-bg-{background}"] if background else [])
    return " ".join(classes) or None


def marked(text: str, marks: list[Node], *, breaks: bool = True) -> Markup:
    html = text_html(text, breaks=breaks)
    types = {str(mark.get("type")) for mark in marks}
    for name, tag in reversed(MARK_TAGS):  # innermost first, so that the outermost wraps the rest
        if name in types:
            html = Markup("<{0}>{1}</{0}>").format(tag, html)
    for mark in marks:
        if mark.get("type") == "color" and (classes := _color_classes(mark)):
            html = Markup('<span class="{}">{}</span>').format(classes, html)
    return html


def render_text(node: Node, *, breaks: bool = True) -> Markup:
    return Markup("").join(marked(text, marks, breaks=breaks) for text, marks in leaves(node))


def _link(context: RenderContext, node: Node) -> Markup:
    return context.link(context.ref_url(data_of(node).get("ref")), context.inlines(node.get("nodes")))


def ref_title(context: RenderContext, ref: Any, url: str | None) -> str:
    """What to call a reference without text of its own (a mention, a content-ref card): a page's title
    or a file's name when the resolver offers them (`page_title`, `file_name`), else the anchor, the URL,
    the last segment of the page's URL, or the id."""
    if not isinstance(ref, Mapping):
        return ""
    space = ref.get("space") if isinstance(ref.get("space"), str) else None
    anchor = ref.get("anchor") if isinstance(ref.get("anchor"), str) else None
    if isinstance(ref.get("page"), str):
        title = context.named("page_title", space_id=space, page_id=ref["page"])
        if title is None and url is not None:
            title = last_segment(url) or None
        if title is not None:
            return f"{title} {_SECTION_SEPARATOR} {anchor}" if anchor else title
    if isinstance(ref.get("file"), str):
        return file_label(context, space, ref["file"], url)
    for field in ("anchor", "url", "page", "space", "reusableContent", "user", "collection"):
        if isinstance(ref.get(field), str):
            return str(ref[field]) if field != "url" or url is None else url
    return ""


def last_segment(url: str) -> str:
    """The last segment of a URL's path, decoded (`/docs/install%20guide#x` gives `install guide`)."""
    return unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2])


def file_label(context: RenderContext, space: str | None, file_id: str, url: str | None) -> str:
    """What a link to a file says: its name from the resolver, else the last segment of its URL, else
    its id."""
    return context.named("file_name", space_id=space, file_id=file_id) or (
        last_segment(url) if url else "") or file_id


def _mention(context: RenderContext, node: Node) -> Markup:
    ref = data_of(node).get("ref")
    url = context.ref_url(ref)
    return context.link(url, escape(ref_title(context, ref, url)), css="bd-mention")


def _button(context: RenderContext, node: Node) -> Markup:
    data = data_of(node)
    kind = data.get("kind") if data.get("kind") in BUTTON_KINDS else "primary"
    label = escape(string(data.get("label")) or "")
    return context.link(context.ref_url(data.get("ref")), label, css=f"bd-button bd-button-{kind}")


def _emoji(context: RenderContext, node: Node) -> Markup:
    code = string(data_of(node).get("code")) or ""
    try:
        points = [int(part, 16) for part in code.split("-")]
    except ValueError:
        return Markup("")
    if not points or not all(0x20 < point <= 0x10FFFF and not 0xD800 <= point <= 0xDFFF for point in points):
        return Markup("")  # not a character (a control, a surrogate, past Unicode)
    character = "".join(map(chr, points))
    return Markup('<span class="bd-emoji" role="img">{}</span>').format(character)


def _icon(context: RenderContext, node: Node) -> Markup:
    data = data_of(node)
    color = COLORS.get(str(data.get("color")))
    name = string(data.get("icon")) or ""
    return Markup("<span{}></span>").format(attributes(
        css="bd-icon" + (f" bd-color-{color}" if color else ""), title=name, role="img", aria_label=name))


def _expression(context: RenderContext, node: Node) -> Markup:
    value = context.value(data_of(node).get("expression"))
    return Markup("") if value is UNKNOWN else escape(js_string(value))


def _inline_math(context: RenderContext, node: Node) -> Markup:
    return Markup('<code class="bd-math">{}</code>').format(string(data_of(node).get("formula")) or "")


def _inline_image(context: RenderContext, node: Node) -> Markup:
    data = data_of(node)
    alt = string(data.get("alt")) or ""
    src = context.ref_url(data.get("ref"))
    if src is None:
        return escape(alt)
    size = "bd-inline-image-line" if data.get("size") == "line" else "bd-inline-image"
    return Markup("<img{}>").format(attributes(src=src, alt=alt, css=size, loading="lazy"))


def _annotation(context: RenderContext, node: Node) -> Markup:
    """The annotated text, then a numbered reference to its note; the notes follow the document."""
    number = len(context.notes) + 1
    note_id = context.unique_id(f"bd-note-{number}")
    ref_id = context.unique_id(f"bd-note-ref-{number}")
    context.notes.append((note_id, ref_id, context.blocks(fragment(node, "annotation-body"))))
    return Markup('<span class="bd-annotated">{}</span><sup class="bd-note-ref"><a{}>{}</a></sup>').format(
        context.inlines(node.get("nodes")), attributes(href="#" + note_id, id=ref_id), number)


INLINES: dict[str, Callable[[RenderContext, Node], Markup]] = {
    "link": _link, "mention": _mention, "button": _button, "emoji": _emoji, "icon": _icon,
    "expression": _expression, "inline-math": _inline_math, "inline-image": _inline_image,
    "annotation": _annotation,
}


def render_inline(context: RenderContext, node: Node) -> Markup:
    """A text or inline node; an unknown inline shows its children, a stray block its text."""
    if node.get("object") == "text":
        return render_text(node)
    render = INLINES.get(str(node.get("type"))) if node.get("object") == "inline" else None
    if render is not None:
        return render(context, node)
    if node.get("object") == "block":
        return escape(text_of(node))
    return context.inlines(children(node)) if children(node) else escape(text_of(node))
