"""The HTML blocks GitBook writes, to document blocks.

`<figure>` (with `<picture>` for a dark-mode variant and `<figcaption>`) and `<div>` around figures are
image blocks; `<img class="gitbook-drawing">` a drawing; `<p align>`/`<h2 align>` aligned text;
`<pre><code>` a code block with highlighted lines (`<strong>`) or inline nodes; `<table>` a table;
`<details><summary>` an expandable; `<!---->` separates two lists. Other HTML is kept as text.
"""

from __future__ import annotations

import html as std_html
import re
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown import conform, html, model
from bindery.engines.content.markdown.inlines import DARK_MEDIA, parse_inline_source
from bindery.engines.content.markdown.liquid import length
from bindery.engines.content.markdown.model import Node
from bindery.engines.content.markdown.token_tree import fold

if TYPE_CHECKING:
    from bindery.engines.content.markdown.html import Element
    from bindery.engines.content.markdown.token_tree import Converter, TNode

ALIGN_IN = {"left": "start", "center": "center", "right": "end"}
ALIGN_OUT = {value: key for key, value in ALIGN_IN.items()}
_HEADING = {
    "h1": "heading-1",
    "h2": "heading-1",
    "h3": "heading-2",
    "h4": "heading-3",
    "h5": "heading-3",
    "h6": "heading-3",
}
_CODE_TAG = re.compile(r"<(/?)([a-zA-Z]+)([^>]*)>")


# At the top of an HTML block, a lone image is an image block; inside a cell or caption it is inline.
_TOP_LEVEL = html.BLOCK_ELEMENTS | {"img", "picture"}


def convert(source: str, conv: Converter, container: str) -> list[Node]:
    root = html.parse_tree(source)
    return _content(root, source, conv, container, loose=True)


def _content(
    parent: Element, source: str, conv: Converter, container: str, *, loose: bool
) -> list[Node]:
    """Blocks of an element's content: block elements, and the inline runs between them."""
    out: list[Node] = []
    pos = parent.inner_start
    names = _TOP_LEVEL if loose else html.BLOCK_ELEMENTS
    for child in parent.children:
        if child.name not in names:
            continue
        out.extend(_inline_run(source[pos : child.start], conv, loose=loose))
        out.extend(element(child, source, conv, container))
        pos = html.end(source, child)
    out.extend(_inline_run(source[pos : parent.inner_end], conv, loose=loose))
    return out


def _inline_run(raw: str, conv: Converter, *, loose: bool) -> list[Node]:
    text = re.sub(r"<!--.*?-->", "", raw, flags=re.DOTALL)
    if not text.strip():
        return []
    if loose:
        conv.ctx.warn("HTML that GitBook does not write was kept as text")
        return [model.paragraph([model.text(text.strip())])]
    return [model.block("paragraph", parse_inline_source(text, conv.ctx)[0])]


def element(el: Element, source: str, conv: Converter, container: str) -> list[Node]:  # noqa: PLR0911, PLR0912 - dispatch
    name = el.name
    if name in ("figure", "picture"):
        return _images([el], {}, source, conv, container)
    if name == "img":
        if "gitbook-drawing" in (el.attr("class") or "").split():
            return [model.block("drawing", data={"ref": conv.ctx.refs.file_only(el.attr("src") or "")})]
        return _images([el], {}, source, conv, container)
    if name == "div":
        figures = [c for c in el.children if c.name in ("figure", "img", "picture")]
        if figures and len(figures) == len(el.children):
            data: dict[str, Any] = {}
            if el.attr("align") in ("center", "left", "right"):
                data["align"] = el.attr("align")
            for attr, key in (("data-full-width", "fullWidth"), ("data-with-frame", "withFrame")):
                if attr in el.attrs:
                    data[key] = el.attr(attr) != "false"
            return _images(figures, data, source, conv, container)
        return _content(el, source, conv, container, loose=True)
    if name == "p" or name in _HEADING:
        nodes, anchor = parse_inline_source(html.inner(source, el), conv.ctx)
        data = {"align": ALIGN_IN[el.attr("align") or ""]} if el.attr("align") in ALIGN_IN else {}
        if anchor and name != "p":
            data["id"] = anchor
        return [model.block("paragraph" if name == "p" else _HEADING[name], nodes, data)]
    if name == "table":
        return [conv.html_table(el, source)]
    if name == "pre":
        return [pre_code(el, source, conv)]
    if name in ("ul", "ol"):
        return [_list(el, source, conv)]
    if name == "hr":
        return [model.block("divider")]
    if name == "details":
        summary = el.find("summary")
        title = parse_inline_source(html.inner(source, summary), conv.ctx)[0] if summary else [model.text()]
        start = html.end(source, summary) if summary else el.inner_start
        body = fold(conv.ctx.md.parse(source[start : el.inner_end], conv.ctx.env))
        return expandable(title, conv.blocks(body, "expandable-body"))
    if name == "blockquote":
        children = _content(el, source, conv, "blockquote", loose=False)
        return conform.split("blockquote", children, lambda run, _i: model.block("blockquote", run))
    return _content(el, source, conv, container, loose=False) if name in html.BLOCK_ELEMENTS else []


def _images(
    els: list[Element], data: dict[str, Any], source: str, conv: Converter, container: str
) -> list[Node]:
    images = [_image(el, source, conv) for el in els]
    if conform.allowed(container, model.block("images")):
        return [model.block("images", images, data)]
    # Where image blocks are not allowed (list items…), each image stays inline in a paragraph.
    return [model.paragraph([model.inline("inline-image", img["data"])]) for img in images]


def _image(el: Element, source: str, conv: Converter) -> Node:
    # The image itself, not those of its caption: <figure>[<picture><source>]<img>…<figcaption>.
    holder = next((c for c in el.children if c.name == "picture"), el) if el.name == "figure" else el
    img = holder if holder.name == "img" else next((c for c in holder.children if c.name == "img"), None)
    attrs = img.attrs if img is not None else {}
    refs = conv.ctx.refs
    data: dict[str, Any] = {"ref": refs.file(attrs.get("src") or "")}
    dark = next((s for s in holder.children if s.name == "source" and s.attr("media") == DARK_MEDIA), None)
    if dark is not None:
        data["refDark"] = refs.file((dark.attr("srcset") or "").strip())
    for attr in ("width", "height"):
        if attrs.get(attr) and length(attrs[attr]) is not None:
            data[attr] = length(attrs[attr])
    if attrs.get("alt"):
        data["alt"] = attrs["alt"]
    caption = el.find("figcaption") if el.name != "img" else None
    nodes = _content(caption, source, conv, "table-cell", loose=False) if caption else []
    nodes = [n for n in nodes if n["type"] == "paragraph" and not model.is_empty_inlines(n["nodes"])]
    return model.image_block(data, caption_nodes=nodes)


def cell_blocks(el: Element, source: str, conv: Converter) -> list[Node]:
    """Blocks of a table cell, list item or caption: its block elements, or one paragraph."""
    if not any(child.name in html.BLOCK_ELEMENTS for child in el.children):
        raw = html.inner(source, el)
        return [model.block("paragraph", parse_inline_source(raw, conv.ctx)[0])] if raw.strip() else []
    return _content(el, source, conv, "table-cell", loose=False)


def _list(el: Element, source: str, conv: Converter) -> Node:
    items = [child for child in el.children if child.name == "li"]
    tasks = any(item.find("input") is not None for item in items)
    type_ = "list-tasks" if tasks else ("list-ordered" if el.name == "ol" else "list-unordered")
    nodes = []
    for item in items:
        checkbox = item.find("input")
        item_data = {"checked": checkbox is not None and "checked" in checkbox.attrs} if tasks else {}
        children = conform.keep_allowed("list-item", cell_blocks(item, source, conv), conv.ctx.warn)
        nodes.append(model.block("list-item", children or [model.paragraph()], item_data))
    start = el.attr("start")
    data: dict[str, Any] = (
        {"start": int(start)}
        if type_ == "list-ordered" and start and start.isdigit() and int(start) != 1
        else {}
    )
    return model.block(type_, nodes, data)


def pre_code(el: Element, source: str, conv: Converter) -> Node:
    """`<pre><code>` with `<strong>` around highlighted lines, annotations and expressions."""
    code = el.find("code") or el
    raw = html.inner(source, code)
    data: dict[str, Any] = {}
    syntax = next((c[5:] for c in (code.attr("class") or "").split() if c.startswith("lang-")), None)
    if syntax:
        data["syntax"] = syntax
    attrs = el.attrs
    if "data-title" in attrs:
        data["title"] = attrs["data-title"] or ""
    if attrs.get("data-overflow") in ("wrap", "scroll"):
        data["overflow"] = attrs["data-overflow"]
    for attr, key in (
        ("data-line-numbers", "lineNumbers"),
        ("data-full-width", "fullWidth"),
        ("data-expandable", "expandable"),
    ):
        if attr in attrs:
            data[key] = attrs[attr] != "false"
    count = attrs.get("data-collapsed-line-count")
    if count and count.isdigit():
        data["collapsedLineCount"] = int(count)
    return model.block("code", _code_lines(raw, conv), data)


def _code_lines(raw: str, conv: Converter) -> list[Node]:  # noqa: PLR0912 - one tag per branch
    lines: list[tuple[list[bool], list[Node]]] = [([False], [])]
    strong = 0
    capture: list[str] | None = None  # the text of an expression
    annotation: Node | None = None
    parts = _CODE_TAG.split(raw)
    for index in range(0, len(parts), 4):
        for n, piece in enumerate(std_html.unescape(parts[index]).split("\n")):
            if n:
                if strong:
                    lines[-1][0][0] = True
                lines.append(([False], []))
            if capture is not None:
                capture.append(piece)
            elif piece:
                (annotation["nodes"] if annotation is not None else lines[-1][1]).append(model.text(piece))
                if strong:
                    lines[-1][0][0] = True
        if index + 3 >= len(parts):
            break
        closing, name = parts[index + 1] == "/", parts[index + 2].lower()
        tag = html.read_tag(f"<{name}{parts[index + 3]}>")
        attrs = tag.attrs if tag else {}
        if name == "strong":
            strong = max(0, strong + (-1 if closing else 1))
        elif name == "code" and not closing and "expression" in (attrs.get("class") or "").split():
            capture = []
        elif name == "code" and closing and capture is not None:
            lines[-1][1].append(model.inline("expression", {"expression": "".join(capture)}))
            capture = None
        elif name == "a" and not closing and "data-footnote-ref" in attrs:
            annotation = model.inline("annotation", {}, [], fragments=[])
            conv.ctx.annotations.append(
                (annotation, (attrs.get("href") or "").removeprefix("#user-content-fn-"))
            )
        elif name == "a" and closing and annotation is not None:
            annotation["nodes"] = annotation["nodes"] or [model.text()]
            lines[-1][1].append(annotation)
            annotation = None
    if not lines[-1][1] and not lines[-1][0][0]:
        lines.pop()
    return [
        model.block("code-line", model.normalize_inlines(nodes), {"highlighted": True} if hl[0] else {})
        for hl, nodes in lines
    ]


def expandable(title: list[Node], body: list[Node]) -> list[Node]:
    def make(run: list[Node], _index: int) -> Node:
        return model.block(
            "expandable",
            fragments=[
                model.fragment("expandable-title", [model.paragraph(title)], "expandable-title"),
                model.fragment("expandable-body", run, "expandable-body"),
            ],
        )

    return conform.split("expandable-body", body, make)


def details(node: TNode, conv: Converter) -> list[Node]:
    """`<details>` spread over several Markdown blocks: a `<summary>` block, then the body."""
    children = list(node.children)
    title: list[Node] = [model.text()]
    extra: list[Node] = []
    if (
        children
        and children[0].token.type == "html_block"
        and children[0].token.content.lstrip().lower().startswith("<summary")
    ):
        source = children.pop(0).token.content
        root = html.parse_tree(source)
        summary = root.find("summary")
        if summary is not None:
            title = parse_inline_source(html.inner(source, summary), conv.ctx)[0]
            rest = source[html.end(source, summary) :]
            if rest.strip():
                extra = conv.blocks(fold(conv.ctx.md.parse(rest, conv.ctx.env)), "expandable-body")
    return expandable(title, extra + conv.blocks(children, "expandable-body"))
