"""The blocks GitBook writes as HTML: figures, aligned text, `<pre>` code, and tables (GFM or HTML).

HTML blocks end at a blank line, so everything here is written on one line (line breaks as `<br>`),
except `<pre>`, whose block ends at `</pre>`.
"""

from __future__ import annotations

import html as std_html
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown import model
from bindery.engines.content.markdown.html import attrs_text, escape_attr
from bindery.engines.content.markdown.html_blocks import ALIGN_OUT
from bindery.engines.content.markdown.liquid import format_length
from bindery.engines.content.markdown.render_inline import InlineRenderer, Notes, code_span
from bindery.engines.content.markdown.render_tables import TableRenderer

if TYPE_CHECKING:
    from bindery.engines.content.markdown.model import Node
    from bindery.engines.content.markdown.references import Paths

_HEADING_TAGS = {"heading-1": "h2", "heading-2": "h3", "heading-3": "h4"}


def attr(value: str) -> str:
    return escape_attr(value)


def heading_anchor(data: dict[str, Any]) -> str:
    """` <a href="#id" id="id"></a>`, as GitBook writes a heading's own id."""
    return f' <a href="#{attr(data["id"])}" id="{attr(data["id"])}"></a>' if data.get("id") else ""


class HtmlRenderer:
    def __init__(self, paths: Paths, notes: Notes, inline: InlineRenderer) -> None:
        self.paths = paths
        self.notes = notes
        self.inline = inline

    def _inline(self, nodes: list[Node]) -> str:
        return self.inline.render(nodes, html=True, breaks="br")

    def aligned(self, tag: str, nodes: list[Node], align: str | None, anchor: str = "") -> str:
        attrs = attrs_text([("align", ALIGN_OUT.get(align or ""))])
        return f"<{tag}{attrs}>{self._inline(nodes)}{anchor}</{tag}>"

    # --- images ---------------------------------------------------------------------------
    def images(self, node: Node) -> str:
        data = node.get("data", {})
        figures = "".join(self.figure(image) for image in node.get("nodes", []))
        if not data and len(node.get("nodes", [])) == 1:
            return figures
        attrs = attrs_text(
            [
                ("align", data.get("align")),
                (
                    "data-full-width",
                    ("true" if data["fullWidth"] else "false") if "fullWidth" in data else None,
                ),
                (
                    "data-with-frame",
                    ("true" if data["withFrame"] else "false") if "withFrame" in data else None,
                ),
            ]
        )
        return f"<div{attrs}>{figures}</div>"

    def figure(self, image: Node) -> str:
        data, paths = image.get("data", {}), self.paths
        img = (
            "<img"
            + attrs_text(
                [
                    ("src", paths.url(data["ref"])),
                    ("alt", data.get("alt", "")),
                    ("width", format_length(data["width"]) if "width" in data else None),
                    ("height", format_length(data["height"]) if "height" in data else None),
                ]
            )
            + ">"
        )
        if "refDark" in data:
            dark = attrs_text(
                [("srcset", paths.url(data["refDark"])), ("media", "(prefers-color-scheme: dark)")]
            )
            img = f"<picture><source{dark}>{img}</picture>"
        caption: list[Node] = next(
            (f.get("nodes", []) for f in image.get("fragments", []) if f.get("fragment") == "caption"), []
        )
        text = "".join(self.cell_block(p, force_p=True) for p in caption)
        return f"<figure>{img}<figcaption>{text}</figcaption></figure>" if text else f"<figure>{img}</figure>"

    # --- code -----------------------------------------------------------------------------
    def pre(self, node: Node) -> str:
        data = node.get("data", {})
        syntax = data.get("syntax")
        pre_attrs = attrs_text(
            [
                ("class", f"language-{syntax}" if syntax else None),
                ("data-title", data.get("title")),
                ("data-overflow", data.get("overflow")),
                *[
                    (f"data-{name}", "true" if data[key] else "false")
                    for name, key in (
                        ("line-numbers", "lineNumbers"),
                        ("full-width", "fullWidth"),
                        ("expandable", "expandable"),
                    )
                    if key in data
                ],
                (
                    "data-collapsed-line-count",
                    str(data["collapsedLineCount"]) if "collapsedLineCount" in data else None,
                ),
            ]
        )
        lines = []
        for line in node.get("nodes", []):
            text = "".join(self._code_inline(child) for child in line.get("nodes", [])) + "\n"
            lines.append(f"<strong>{text}</strong>" if line.get("data", {}).get("highlighted") else text)
        code_attrs = attrs_text([("class", f"lang-{syntax}" if syntax else None)])
        return f"<pre{pre_attrs}><code{code_attrs}>{''.join(lines)}</code></pre>"

    def _code_inline(self, child: Node) -> str:
        if child["object"] == "text":
            return _pre_text("".join(leaf["text"] for leaf in child["leaves"]))
        if child["type"] == "expression":
            expression = _pre_text(str(child["data"]["expression"]))
            return f'<code class="expression">{expression}</code>'
        if child["type"] == "annotation":
            number = self.notes.add((child.get("fragments") or [{}])[0].get("nodes") or [model.paragraph()])
            inner = "".join(self._code_inline(n) for n in child.get("nodes", []))
            return f'<a data-footnote-ref href="#user-content-fn-{number}">{inner}</a>'
        return ""

    def table(self, node: Node) -> str:
        return TableRenderer(self.paths, self.inline, self.cell_blocks).table(node)

    def cell_blocks(self, nodes: list[Node]) -> str:
        if (
            len(nodes) == 1
            and nodes[0]["type"] == "paragraph"
            and not nodes[0].get("data")
            and not model.is_empty_inlines(nodes[0].get("nodes", []))
        ):
            return self._inline(nodes[0].get("nodes", []))
        return "".join(self.cell_block(node) for node in nodes)

    def cell_block(self, node: Node, *, force_p: bool = False) -> str:  # noqa: PLR0911 - one return per block type
        kind, data = node["type"], node.get("data", {})
        if kind == "paragraph" or force_p:
            return self.aligned("p", node.get("nodes", []), data.get("align"))
        if kind in _HEADING_TAGS:
            return self.aligned(
                _HEADING_TAGS[kind], node.get("nodes", []), data.get("align"), heading_anchor(data)
            )
        if kind == "divider":
            return "<hr>"
        if kind in ("list-ordered", "list-unordered", "list-tasks"):
            tag = "ol" if kind == "list-ordered" else "ul"
            start = attrs_text([("start", str(data["start"]) if "start" in data else None)])
            items = []
            for item in node.get("nodes", []):
                box = ""
                if kind == "list-tasks":
                    box = (
                        "<input"
                        + attrs_text(
                            [("type", "checkbox"), ("checked", bool(item.get("data", {}).get("checked")))]
                        )
                        + ">"
                    )
                items.append(f"<li>{box}{self._li(item.get('nodes', []))}</li>")
            return f"<{tag}{start}>{''.join(items)}</{tag}>"
        if kind == "code":
            text = "\n".join(model.plain_text(line.get("nodes", [])) for line in node.get("nodes", []))
            return f"<p>{code_span(text)}</p>"
        if kind == "math":
            # An HTML cell has no block formula (GitBook's cells hold text blocks): the formula is kept
            # inline, where the cell can hold it, rather than dropped.
            formula = model.inline("inline-math", {"formula": data.get("formula", "")})
            return f"<p>{self._inline([formula])}</p>"
        return ""

    def _li(self, nodes: list[Node]) -> str:
        if (
            nodes
            and nodes[0]["type"] == "paragraph"
            and not nodes[0].get("data")
            and not model.is_empty_inlines(nodes[0].get("nodes", []))
        ):
            return self._inline(nodes[0].get("nodes", [])) + "".join(self.cell_block(n) for n in nodes[1:])
        return "".join(self.cell_block(n) for n in nodes)


def _pre_text(text: str) -> str:
    """Text in `<pre>`: HTML-escaped, and `{%` as a reference so that it is not read as a GitBook tag."""
    return std_html.escape(text, quote=False).replace("{%", "&#x7B;%")
