"""markdown-it block tokens to document blocks: paragraphs, headings, lists, quotes, code, math.

The flat token stream is first folded into a tree (token_tree.TNode: an opening token, its children, or a
single token), then converted node by node. GitBook's containers are delegated to `liquid.py` (`{% … %}`),
`html_blocks.py` (figures, tables, aligned paragraphs…) and `tables.py` (GFM tables).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bindery.engines.content.markdown import conform, html_blocks, liquid, model, tables
from bindery.engines.content.markdown.inlines import convert_inline
from bindery.engines.content.markdown.model import Node
from bindery.engines.content.markdown.token_tree import TNode

if TYPE_CHECKING:

    from bindery.engines.content.markdown.context import ParseContext
    from bindery.engines.content.markdown.html import Element

_TASK = re.compile(r"\[([ xX])\](?:[ \t]|$)")
_HEADINGS = {"h1": "heading-1", "h2": "heading-1", "h3": "heading-2"}


class BlockConverter:
    def __init__(self, ctx: ParseContext) -> None:
        self.ctx = ctx

    def blocks(self, nodes: list[TNode], container: str) -> list[Node]:
        """Blocks for a container's children (some of which the container may have to let out)."""
        out: list[Node] = []
        for node in nodes:
            out.extend(self.block(node, container))
        return out

    def block(self, node: TNode, container: str) -> list[Node]:  # noqa: PLR0911 - dispatch
        kind = node.token.type
        if kind == "paragraph_open":
            return [self.paragraph(node, container)]
        if kind == "heading_open":
            nodes, anchor = self.inlines(node)
            data = {"id": anchor} if anchor else {}
            return [model.block(_HEADINGS.get(node.token.tag, "heading-3"), nodes, data)]
        if kind in ("bullet_list_open", "ordered_list_open"):
            return self.list_block(node)
        if kind == "blockquote_open":
            children = self.blocks(node.children, "blockquote")
            return conform.split("blockquote", children, lambda run, _i: model.block("blockquote", run))
        if kind in ("fence", "code_block"):
            return [
                code_block(
                    node.token.content, node.token.info.split()[0] if node.token.info.strip() else None
                )
            ]
        if kind == "hr":
            return [model.block("divider")]
        if kind == "gitbook_math_block":
            return [model.block("math", data={"formula": node.token.content.rstrip("\n")})]
        if kind == "html_block":
            return html_blocks.convert(node.token.content, self, container)
        if kind == "table_open":
            return [tables.from_gfm(node, self)]
        if kind in ("liquid_open", "liquid_void", "liquid_stray"):
            return liquid.convert(node, self, container)
        if kind == "details_open":
            return html_blocks.details(node, self)
        if kind == "inline":  # content of a container that began mid-line, e.g. `{% tab %}text`
            return [model.paragraph(convert_inline(node.token.children or [], self.ctx)[0])]
        return []

    def html_table(self, table: Element, source: str) -> Node:
        return tables.from_html(table, source, self)

    def html_cell(self, el: Element, source: str) -> list[Node]:
        return html_blocks.cell_blocks(el, source, self)

    def inlines(self, node: TNode) -> tuple[list[Node], str | None]:
        inline = next((child.token for child in node.children if child.token.type == "inline"), None)
        if inline is None:
            return [model.text()], None
        return convert_inline(inline.children or [], self.ctx)

    def paragraph(self, node: TNode, container: str) -> Node:
        nodes, _anchor = self.inlines(node)
        real = [n for n in nodes if not (n["object"] == "text" and model.plain_text([n]).strip() == "")]
        if len(real) == 1 and real[0].get("type") == "inline-image" and self._markdown_image(node):
            image = real[0]
            if conform.allowed(container, model.block("images")):
                data = {k: v for k, v in image["data"].items() if k in ("ref", "refDark")}
                caption = image["data"].get("alt")
                return model.block("images", [model.image_block(data, caption)])
        return model.block("paragraph", nodes)

    @staticmethod
    def _markdown_image(node: TNode) -> bool:
        inline = next((child.token for child in node.children if child.token.type == "inline"), None)
        children = inline.children if inline is not None and inline.children else []
        return [c.type for c in children if not (c.type == "text" and not c.content.strip())] == ["image"]

    def list_block(self, node: TNode) -> list[Node]:
        items = [child for child in node.children if child.token.type == "list_item_open"]
        tasks = any(_task_mark(item) is not None for item in items)
        type_ = (
            "list-tasks"
            if tasks
            else ("list-ordered" if node.token.type == "ordered_list_open" else "list-unordered")
        )
        start = int(node.token.attrGet("start") or 1)
        children: list[Node] = []
        for item in items:
            mark = _task_mark(item)
            data = {"checked": mark == "x"} if tasks else {}
            blocks = self.blocks(item.children, "list-item")
            if mark is not None and blocks and blocks[0]["type"] == "paragraph":
                blocks[0] = _strip_task(blocks[0])
            children.extend(conform.split("list-item", blocks, conform.maker("list-item", data)))

        numbered = [start]

        def make(run: list[Node], _index: int) -> Node:
            data: dict[str, object] = {}
            if type_ == "list-ordered" and numbered[0] != 1:
                data["start"] = numbered[0]
            numbered[0] += len(run)
            return model.block(type_, run, data)

        return conform.split(type_, children, make)


def _task_mark(item: TNode) -> str | None:
    first = item.children[0] if item.children else None
    if first is None or first.token.type != "paragraph_open":
        return None
    inline = next((child.token for child in first.children if child.token.type == "inline"), None)
    match = _TASK.match(inline.content) if inline is not None else None
    return match.group(1).lower() if match else None


def _strip_task(paragraph: Node) -> Node:
    first = paragraph["nodes"][0]
    leaves = [dict(lf) for lf in first["leaves"]]
    text = leaves[0]["text"]
    leaves[0]["text"] = text[4:] if len(text) > 3 and text[3] in " \t" else text[3:]
    return model.paragraph([{"object": "text", "leaves": leaves}, *paragraph["nodes"][1:]])


def code_block(content: str, syntax: str | None, data: dict[str, object] | None = None) -> Node:
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    nodes = [model.block("code-line", [model.text(line)]) for line in lines]
    merged: dict[str, object] = {"syntax": syntax} if syntax else {}
    merged.update(data or {})
    return model.block("code", nodes, merged)


