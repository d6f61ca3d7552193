"""Code blocks: syntax highlighting by Pygments on the server (CSS classes, styled by blocks.css for light
and dark themes), a title, wrapping, line numbers (CSS counters, so copying the code copies no number) and
highlighted lines. Pygments is imported on the first code block, not when the module loads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from bindery.engines.site_pages.rendering.context import attributes
from bindery.engines.site_pages.rendering.nodes import Node, children, data_of, string, text_of

if TYPE_CHECKING:
    from bindery.engines.site_pages.rendering.context import RenderContext

# Lexing is regular-expression work: past this size a block is shown without colours rather than risk a
# slow page on a pathological input.
MAX_HIGHLIGHTED_CHARS = 100_000
_LANGUAGE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789+#-_.")


def _plain(line: Node) -> bool:
    """Whether a code line is text only (no link, annotation or expression inside)."""
    return all(child.get("object") == "text" for child in children(line))


def _token_class(ttype: Any, classes: dict[Any, str]) -> str:
    while ttype not in classes and ttype.parent is not None:
        ttype = ttype.parent
    return classes.get(ttype, "")


def _highlighted(code: str, syntax: str | None, count: int) -> list[Markup]:
    """`count` lines of highlighted HTML (Pygments' short CSS classes); plain text for an unknown syntax."""
    from pygments.lexers import get_lexer_by_name
    from pygments.lexers.special import TextLexer
    from pygments.token import STANDARD_TYPES
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(syntax or "text", stripnl=False, ensurenl=False)
    except ClassNotFound:
        lexer = TextLexer(stripnl=False, ensurenl=False)
    lines: list[Markup] = [Markup("")]
    for ttype, value in lexer.get_tokens(code):
        css = _token_class(ttype, STANDARD_TYPES)
        for index, part in enumerate(value.split("\n")):
            if index:
                lines.append(Markup(""))
            if part:
                lines[-1] += Markup('<span class="{}">{}</span>').format(css, part) if css else escape(part)
    return (lines + [Markup("")] * count)[:count]


def _lines(context: RenderContext, lines: list[Node], syntax: str | None) -> Iterable[Markup]:
    """Each line as HTML: highlighted as part of the whole block, unless it holds inline nodes (shown as
    such, uncoloured) or the block is too large to colour."""
    texts = [text_of(line).replace("\n", " ") for line in lines]
    if sum(map(len, texts)) > MAX_HIGHLIGHTED_CHARS:
        return (context.inlines(line.get("nodes")) for line in lines)
    coloured = _highlighted("\n".join(texts), syntax, len(lines))
    return (html if _plain(line) else context.inlines(line.get("nodes"))
            for line, html in zip(lines, coloured, strict=True))


def render_code(context: RenderContext, node: Node) -> Markup:
    data = data_of(node)
    syntax = string(data.get("syntax"))
    syntax = syntax.lower() if syntax and set(syntax.lower()) <= _LANGUAGE and len(syntax) < 40 else None
    lines = [line for line in children(node) if line.get("object") == "block"]
    body = Markup("\n").join(
        Markup('<span class="{}">{}</span>').format(
            "bd-line bd-line-highlighted" if data_of(line).get("highlighted") is True else "bd-line", html)
        for line, html in zip(lines, _lines(context, lines, syntax), strict=True))
    css = " ".join(["bd-code"] + (["bd-code-wrap"] if data.get("overflow") == "wrap" else [])
                   + (["bd-code-numbered"] if data.get("lineNumbers") is True else []))
    title = string(data.get("title"))
    heading = Markup('<div class="bd-code-title">{}</div>').format(title) if title else Markup("")
    return Markup("<div{}>{}<pre><code{}>{}</code></pre></div>").format(
        attributes(css=css), heading, attributes(css="highlight", data_language=syntax), body)
