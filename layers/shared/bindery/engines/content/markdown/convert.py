"""Documents to GitBook Markdown (`document_to_markdown`): front matter, title, blocks, footnotes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.engines.content.markdown import front_matter as _front_matter
from bindery.engines.content.markdown.context import ParseContext
from bindery.engines.content.markdown.inlines import convert_inline
from bindery.engines.content.markdown.model import Node
from bindery.engines.content.markdown.parse import parser
from bindery.engines.content.markdown.references import FilePath, PagePath, Paths, Resolvers
from bindery.engines.content.markdown.render import BlockRenderer
from bindery.engines.content.markdown.render_inline import InlineRenderer, Notes, escape


def _check(source: str) -> list[Node]:
    """Inline Markdown read back, to verify that emphasis delimiters say what was meant."""
    md = parser()
    ctx = ParseContext(md, Resolvers())
    tokens = md.parseInline(source, ctx.env)
    return convert_inline(tokens[0].children or [] if tokens else [], ctx)[0]


def document_to_markdown(
    document: Mapping[str, Any],
    *,
    title: str | None = None,
    front_matter: Mapping[str, Any] | None = None,
    page_path: PagePath | None = None,
    file_path: FilePath | None = None,
    hint_styles: Mapping[str, str] | None = None,
) -> str:
    """The page as Git Sync writes it: front matter, `# title`, the blocks, then the footnotes.

    `page_path(ref)` gives the URL for a reference to a page, an anchor in another page, a space,
    reusable content…; `file_path(file_id)` the path of a file. See `references.py`. `hint_styles`: the
    hint styles the import read otherwise than the spec's, by block key (ParsedPage.hint_styles)."""
    paths = Paths(page_path, file_path)
    notes = Notes()
    renderer = BlockRenderer(paths, notes, InlineRenderer(paths, notes, _check), hint_styles=hint_styles)
    parts = []
    if title is not None:
        heading = escape(title, lt_entity=False, breaks="br", line_start=False, block_end=True)
        parts.append(f"# {heading}".rstrip())
    body = renderer.blocks(list(document.get("nodes", [])))
    if body:
        parts.append(body)
    footnotes = renderer.footnotes()
    if footnotes:
        parts.append(footnotes)
    text = "\n\n".join(parts)
    return _front_matter.render(dict(front_matter or {})) + (text + "\n" if text else "")
