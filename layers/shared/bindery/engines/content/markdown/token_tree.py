"""markdown-it's flat block tokens folded into a tree, and what a block handler may ask of the
converter that called it.

`TNode` is an opening token with its children, or a single token. `Converter` is the part of
blocks.BlockConverter that the container handlers (html_blocks, liquid, tables) call back into: naming
it here lets the converter import its handlers while none of them imports the converter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from markdown_it.token import Token

    from bindery.engines.content.markdown.context import ParseContext
    from bindery.engines.content.markdown.html import Element
    from bindery.engines.content.markdown.model import Node


@dataclass
class TNode:
    token: Token
    children: list[TNode] = field(default_factory=list)


def fold(tokens: list[Token]) -> list[TNode]:
    root: list[TNode] = []
    stack: list[list[TNode]] = [root]
    for token in tokens:
        if token.nesting == 1:
            node = TNode(token)
            stack[-1].append(node)
            stack.append(node.children)
        elif token.nesting == -1:
            if len(stack) > 1:
                stack.pop()
        else:
            stack[-1].append(TNode(token))
    return root


class Converter(Protocol):
    ctx: ParseContext

    def blocks(self, nodes: list[TNode], container: str) -> list[Node]:
        """Blocks for a container's children."""
        ...

    def block(self, node: TNode, container: str) -> list[Node]:
        """Blocks for one node (a container may have to let some out)."""
        ...

    def html_table(self, table: Element, source: str) -> Node:
        """A `<table>` element as a table block (tables.from_html)."""
        ...

    def html_cell(self, el: Element, source: str) -> list[Node]:
        """Blocks of a table cell, list item or caption element (html_blocks.cell_blocks)."""
        ...
