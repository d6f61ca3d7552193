"""GitBook JSON documents to GitBook-flavoured Markdown, the way Git Sync writes them.

Blocks are separated by a blank line; two adjacent lists by `<!---->`; containers are written with
their `{% … %}` tags (or `<details>`), content inside list items and quotes is indented or prefixed.
Annotations become footnotes at the end of the page. `docs/markdown.md` lists every construct.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown import model, render_html
from bindery.engines.content.markdown.liquid import hint_style
from bindery.engines.content.markdown.render_inline import InlineRenderer, Notes, escape, link_destination
from bindery.engines.content.markdown.rules import LISTS
from bindery.engines.content.markdown.tags import write_tag

if TYPE_CHECKING:
    from bindery.engines.content.markdown.model import Node
    from bindery.engines.content.markdown.references import Paths

_LONE_TAG = re.compile(r"<[a-zA-Z][^<>]*>\s*(\n|$)")
_THEMATIC_BREAK = re.compile(r"^ {0,3}([-*_])( *\1){2,} *$")
_LONE_MARKER = re.compile(r"(\*|\d+\.)(\n|$)")


def _opens_item(marker: str, line: str) -> bool:
    """Whether an item's first block can start on its marker's line (GitBook's `* ```…`): it reads the
    same there unless it starts with spaces or would make the line a thematic break (`* ***`)."""
    return bool(line) and not line[0].isspace() and not _THEMATIC_BREAK.match(f"{marker} {line}")


def indent(text: str, prefix: str, first: str | None = None) -> str:
    lines = text.split("\n")
    out = [(first if first is not None else prefix) + lines[0]]
    out.extend(prefix + line if line else "" for line in lines[1:])
    return "\n".join(out)


def _bool_attrs(data: dict[str, Any], *names: str) -> list[tuple[str, Any]]:
    return [(name, "true" if data[name] else "false") for name in names if name in data]


class BlockRenderer:
    def __init__(
        self,
        paths: Paths,
        notes: Notes,
        inline: InlineRenderer,
        *,
        hint_styles: Mapping[str, str] | None = None,
    ) -> None:
        self.paths = paths
        self.hint_styles = hint_styles or {}
        self.notes = notes
        self.inline = inline
        self.html = render_html.HtmlRenderer(paths, notes, inline)

    def blocks(self, nodes: list[Node]) -> str:
        parts: list[str] = []
        previous: Node | None = None
        for node in nodes:
            if previous is not None and previous["type"] in LISTS and node["type"] in LISTS:
                parts.append("<!---->")
            parts.append(self.block(node))
            previous = node
        return "\n\n".join(part for part in parts if part != "")

    def _hint_style(self, node: Node) -> str:
        """The style as the import read it (`tip`), while the block still has the style it was mapped to."""
        style = str(node.get("data", {}).get("style", "info"))
        written = self.hint_styles.get(str(node.get("key")))
        return written if written is not None and hint_style(written) == style else style

    def block(self, node: Node) -> str:  # noqa: PLR0911, PLR0912 - one branch per block type
        kind, data = node["type"], node.get("data", {})
        children = node.get("nodes", [])
        if kind == "paragraph":
            return self.paragraph(node)
        if kind in ("heading-1", "heading-2", "heading-3"):
            return self.heading(node)
        if kind in LISTS:
            return self.list_block(node)
        if kind == "blockquote":
            return "\n".join(">" + (" " + line if line else "") for line in self.blocks(children).split("\n"))
        if kind == "code":
            return self.code(node)
        if kind == "hint":
            return self._tag("hint", children, attrs=[("style", self._hint_style(node))])
        if kind == "divider":
            return "***"
        if kind == "math":
            formula = str(data.get("formula", ""))
            return f"$$\n{formula}\n$$" if formula else "$$\n$$"
        if kind == "images":
            return self.html.images(node)
        if kind == "file":
            return write_tag("file", attrs=[("src", self.paths.url(data["ref"]))]) + "\n{% endfile %}"
        if kind == "drawing":
            return (
                f'<img src="{render_html.attr(self.paths.url(data["ref"]))}" alt="" class="gitbook-drawing">'
            )
        if kind == "embed":
            return write_tag("embed", attrs=[("url", data.get("url", "")), *_bool_attrs(data, "fullWidth")])
        if kind == "content-ref":
            url = self.paths.url(data["ref"])
            label = escape(url, lt_entity=False, breaks="br", line_start=False, block_end=False)
            return (
                f"{write_tag('content-ref', attrs=[('url', url)])}\n[{label}]({link_destination(url)})\n"
                "{% endcontent-ref %}"
            )
        if kind == "reusable-content":
            return write_tag("include", self.paths.reusable(data["ref"]))
        if kind == "integration":
            return self.integration(data)
        if kind in ("swagger", "openapi-operation", "openapi-schemas", "openapi-webhook"):
            return self.openapi(kind, data)
        if kind == "expandable":
            return self.expandable(node)
        if kind in ("tabs", "stepper", "columns"):
            return self.group(node)
        if kind == "if":
            return (
                "{% if " + str(data.get("expression", "")) + " %}\n" + self.blocks(children) + "\n{% endif %}"
            )
        if kind == "table":
            return self.html.table(node)
        return ""

    def paragraph(self, node: Node) -> str:
        nodes, data = node.get("nodes", []), node.get("data", {})
        if model.is_empty_inlines(nodes) and not data.get("align"):
            return "<p></p>"
        text = self.inline.render(nodes)
        if data.get("align") or _LONE_TAG.match(text):
            # An aligned paragraph, or one that would read as an HTML block: written as HTML.
            return self.html.aligned("p", nodes, data.get("align"))
        return text

    def heading(self, node: Node) -> str:
        level = {"heading-1": 2, "heading-2": 3, "heading-3": 4}[node["type"]]
        data = node.get("data", {})
        anchor = render_html.heading_anchor(data)
        if data.get("align"):
            return self.html.aligned(f"h{level}", node.get("nodes", []), data["align"], anchor)
        text = self.inline.render(node.get("nodes", []), breaks="br")
        if text.endswith("#") and not text.endswith("\\#"):
            text = text[:-1] + "\\#"
        return ("#" * level + " " + text).rstrip() + anchor

    def list_block(self, node: Node) -> str:
        start = int(node.get("data", {}).get("start", 1))
        items = []
        for index, item in enumerate(node.get("nodes", [])):
            if node["type"] == "list-ordered":
                marker = f"{start + index}."
            elif node["type"] == "list-tasks":
                marker = "* [x]" if item.get("data", {}).get("checked") else "* [ ]"
            else:
                marker = "*"
            width = len(marker) + 1 if node["type"] != "list-tasks" else 2
            body = self._item_body(item.get("nodes", []))
            first = item.get("nodes", [{}])[0].get("type") if item.get("nodes") else None
            opening = body.split("\n", 1)[0]
            if first == "paragraph" or node["type"] == "list-tasks" or _opens_item(marker, opening):
                items.append(indent(body, " " * width, marker + " ") if body else marker)
            else:
                items.append(marker + "\n" + indent(body, " " * width) if body else marker)
        return "\n".join(items)

    def _item_body(self, nodes: list[Node]) -> str:
        """A list item's blocks; a nested list follows its paragraph on the next line (a tight list),
        except an ordered one not starting at 1, which could not interrupt the paragraph."""
        if (
            len(nodes) == 2
            and nodes[0]["type"] == "paragraph"
            and nodes[1]["type"] in LISTS
            and not (nodes[1]["type"] == "list-ordered" and nodes[1].get("data", {}).get("start", 1) != 1)
        ):
            first, nested = self.block(nodes[0]), self.block(nodes[1])
            # an item opening with a blank line (`*` alone) could not interrupt the paragraph
            if "\n" not in first and not first.startswith("<") and not _LONE_MARKER.match(nested):
                return first + "\n" + nested
        return self.blocks(nodes)

    def code(self, node: Node) -> str:
        data = node.get("data", {})
        lines = node.get("nodes", [])
        if any(line.get("data", {}).get("highlighted") or _rich_line(line) for line in lines):
            return self.html.pre(node)
        texts = [model.plain_text(line.get("nodes", [])) for line in lines]
        longest = max((len(run) for text in texts for run in re.findall(r"`+", text)), default=0)
        syntax = str(data.get("syntax", ""))
        fence = ("~" if "`" in syntax else "`") * max(3, longest + 1)
        body = "".join(text + "\n" for text in texts)
        fenced = f"{fence}{syntax}\n{body}{fence}"
        attrs: list[tuple[str, Any]] = []
        if "title" in data:
            attrs.append(("title", data["title"]))
        if "overflow" in data:
            attrs.append(("overflow", data["overflow"]))
        attrs += _bool_attrs(data, "lineNumbers", "fullWidth", "expandable")
        if "collapsedLineCount" in data:
            attrs.append(("collapsedLineCount", str(data["collapsedLineCount"])))
        return f"{write_tag('code', attrs=attrs)}\n{fenced}\n{{% endcode %}}" if attrs else fenced

    def _tag(self, name: str, children: list[Node], *, attrs: list[tuple[str, Any]] | None = None) -> str:
        return f"{write_tag(name, attrs=attrs)}\n{self.blocks(children)}\n{{% end{name} %}}"

    def group(self, node: Node) -> str:
        kind, data = node["type"], node.get("data", {})
        item_tag = {"tabs": "tab", "stepper": "step", "columns": "column"}[kind]
        items = []
        for item in node.get("nodes", []):
            item_data = item.get("data", {})
            attrs: list[tuple[str, Any]] = []
            if kind == "tabs":
                attrs.append(("title", item_data.get("title", "")))
            elif kind == "stepper" and "icon" in item_data:
                attrs.append(("icon", item_data["icon"]))
            elif kind == "columns":
                if "width" in item_data:
                    from bindery.engines.content.markdown.liquid import format_length

                    attrs.append(("width", format_length(item_data["width"])))
                if "verticalAlignment" in item_data:
                    attrs.append(("valign", item_data["verticalAlignment"]))
            items.append(self._tag(item_tag, item.get("nodes", []), attrs=attrs))
        attrs = _bool_attrs(data, "fullWidth") if kind != "stepper" else []
        return f"{write_tag(kind, attrs=attrs)}\n" + "\n\n".join(items) + f"\n{{% end{kind} %}}"

    def expandable(self, node: Node) -> str:
        fragments = {f.get("fragment"): f for f in node.get("fragments", [])}
        title = fragments.get("expandable-title", {}).get("nodes", [])
        title_inlines = title[0].get("nodes", []) if title else []
        body = self.blocks(fragments.get("expandable-body", {}).get("nodes", []))
        summary = self.inline.render(title_inlines, html=True, breaks="br")
        return f"<details>\n\n<summary>{summary}</summary>\n\n{body}\n\n</details>"

    def integration(self, data: dict[str, Any]) -> str:
        attrs: list[tuple[str, Any]] = list(data.get("props", {}).items())
        attrs += [(f"@{key}", data[key]) for key in ("url", "fullWidth", "action") if key in data]
        return write_tag(f"@{data.get('integration', '')}/{data.get('block', '')}", attrs=attrs)

    def openapi(self, kind: str, data: dict[str, Any]) -> str:
        if kind == "swagger":
            url = self.paths.url(data["ref"])
            attrs = [
                ("src", url),
                ("path", data.get("path", "")),
                ("method", data.get("method", "")),
                *_bool_attrs(data, "expanded", "fullWidth"),
            ]
            label = escape(url, lt_entity=False, breaks="br", line_start=False, block_end=False)
            return (
                f"{write_tag('openapi', attrs=attrs)}\n[{label}]({link_destination(url)})\n{{% endopenapi %}}"
            )
        spec = str(data["ref"].get("spec", ""))
        attrs = [("spec", spec)]
        if kind == "openapi-operation":
            attrs += [("path", data.get("path", "")), ("method", data.get("method", ""))]
        elif kind == "openapi-webhook":
            attrs += [("name", data.get("name", "")), ("method", data.get("method", ""))]
        else:
            attrs += [("schemas", ",".join(data.get("schemas", []))), *_bool_attrs(data, "grouped")]
        label = escape(f"OpenAPI {spec}", lt_entity=False, breaks="br", line_start=False, block_end=False)
        url = self.paths.url(data["ref"])
        return f"{write_tag(kind, attrs=attrs)}\n[{label}]({link_destination(url)})\n{{% end{kind} %}}"

    def footnotes(self) -> str:
        parts, done = [], 0
        while done < len(self.notes.bodies):
            blocks = self.notes.bodies[done]
            body = self.blocks(blocks)
            done += 1
            if blocks and blocks[0]["type"] in LISTS:
                # A list item's later lines are indented from its marker's column, which on the label's
                # line is past `[^1]: `: the list starts on the next line, where the marker sits at 4.
                parts.append(f"[^{done}]:\n" + indent(body, "    "))
            else:
                parts.append(indent(body, "    ", f"[^{done}]: "))
        return "\n\n".join(parts)


def _rich_line(line: Node) -> bool:
    return any(
        child["object"] != "text" or any(leaf["marks"] for leaf in child["leaves"])
        for child in line.get("nodes", [])
    )
