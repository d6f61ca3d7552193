"""What one parse carries along: the parser, the reference resolvers, footnotes and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown.references import Resolvers

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

    from bindery.engines.content.markdown.model import Node


@dataclass
class ParseContext:
    md: MarkdownIt
    refs: Resolvers
    env: dict[str, Any] = field(default_factory=dict)  # markdown-it's environment (footnote labels)
    # Footnote definitions by label (their block tokens), and the annotations waiting for them.
    footnotes: dict[str, list[Token]] = field(default_factory=dict)
    annotations: list[tuple[Node, str]] = field(default_factory=list)
    # The footnotes whose definitions are being converted, the outermost first: a reference to one of
    # them from inside its own definition (however deep) stays text, or the expansion would never end.
    expanding: frozenset[str] = frozenset()
    warnings: list[str] = field(default_factory=list)
    # Hint blocks whose style was written otherwise than the spec's (liquid.hint_style), with it.
    restyled: list[tuple[Node, str]] = field(default_factory=list)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
