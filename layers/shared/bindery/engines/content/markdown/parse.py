"""GitBook-flavoured Markdown to a GitBook JSON document.

markdown-it-py parses CommonMark with GFM tables and strikethrough, front matter and footnotes
(mdit-py-plugins), plus Bindery's rules for GitBook's `{% … %}` containers, `<details>`, `$$` math and
emoji shortcodes; the token stream is then converted to document blocks (`blocks.py` and friends).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from bindery.engines.content.markdown import block_rules, conform, front_matter, inline_rules, model
from bindery.engines.content.markdown.block_keys import assign_keys
from bindery.engines.content.markdown.blocks import BlockConverter
from bindery.engines.content.markdown.context import ParseContext
from bindery.engines.content.markdown.inlines import convert_inline
from bindery.engines.content.markdown.model import Node
from bindery.engines.content.markdown.references import LinkResolver, Resolvers
from bindery.engines.content.markdown.token_tree import fold

if TYPE_CHECKING:
    from markdown_it.token import Token


class _Parser(MarkdownIt):
    """Link targets are kept as written: a document stores references, not HTML attributes, and
    normalizing them (percent-encoding) would change what the resolvers and a round trip see."""

    def validateLink(self, url: str) -> bool:  # noqa: N802 - markdown-it's name
        return True

    def normalizeLink(self, url: str) -> str:  # noqa: N802
        return url

    def normalizeLinkText(self, link: str) -> str:  # noqa: N802
        return link


@functools.cache
def parser() -> MarkdownIt:
    md = _Parser("commonmark", {"html": True})
    md.enable(["table", "strikethrough"])
    md.use(front_matter_plugin)
    md.use(footnote_plugin, inline=False, move_to_end=False)
    block_rules.install(md)
    inline_rules.install(md)
    return md


@dataclass
class ParsedPage:
    """A page read from Markdown: its document, title (the leading `# Title`), front matter, the link
    targets and file sources it contains (as written, in order), and what could not be represented."""

    document: Node
    title: str | None = None
    front_matter: dict[str, Any] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # The hint styles written otherwise than the spec's (`tip`, `note`…), by the key of their block (whose
    # style is the nearest official one): what an export writes back (document_to_markdown's `hint_styles`).
    hint_styles: dict[str, str] = field(default_factory=dict)

    @property
    def description(self) -> str | None:
        value = self.front_matter.get("description")
        return str(value) if value is not None else None

    @property
    def icon(self) -> str | None:
        value = self.front_matter.get("icon")
        return str(value) if value is not None else None

    @property
    def hidden(self) -> bool:
        return self.front_matter.get("hidden") is True

    @property
    def layout(self) -> dict[str, Any]:
        value = self.front_matter.get("layout")
        return value if isinstance(value, dict) else {}


def _take_footnotes(tokens: list[Token], ctx: ParseContext) -> list[Token]:
    """Footnote definitions (`[^1]: …`) are annotation bodies: set them aside by label."""
    out: list[Token] = []
    depth, label = 0, ""
    body: list[Token] = []
    for token in tokens:
        if token.type == "footnote_reference_open":
            if depth == 0:
                label, body = str(token.meta["label"]), []
            depth += 1
            if depth > 1:
                body.append(token)
        elif token.type == "footnote_reference_close":
            depth -= 1
            if depth == 0:
                ctx.footnotes.setdefault(label, body)
            else:
                body.append(token)
        elif depth:
            body.append(token)
        else:
            out.append(token)
    return out


def _fill_annotations(conv: BlockConverter, ctx: ParseContext) -> None:
    """Converts each annotation's footnote definition into its body. A definition can refer to other
    footnotes: each annotation met on the way is filled in turn, knowing the definitions it sits in."""
    within: dict[int, frozenset[str]] = {}  # an annotation's index -> the labels it was found inside
    done = 0
    while done < len(ctx.annotations):
        node, label = ctx.annotations[done]
        chain = within.get(done, frozenset()) | {label}
        done += 1
        tokens = ctx.footnotes.get(label)
        if tokens is None:
            ctx.warn(f"the footnote [^{label}] has no definition")
        found = len(ctx.annotations)
        ctx.expanding = chain
        try:
            converted = conv.blocks(fold(tokens or []), "annotation-body")
        finally:
            ctx.expanding = frozenset()
        within.update(dict.fromkeys(range(found, len(ctx.annotations)), chain))
        body = conform.keep_allowed("annotation-body", converted, ctx.warn)
        node["fragments"] = [
            model.fragment("annotation-body", body or [model.paragraph()], "annotation-body")
        ]


def markdown_to_document(
    text: str,
    *,
    resolve_link: LinkResolver | None = None,
    resolve_file: LinkResolver | None = None,
) -> ParsedPage:
    md = parser()
    ctx = ParseContext(md, Resolvers(resolve_link, resolve_file))
    tokens = md.parse(text, ctx.env)
    meta: dict[str, Any] = {}
    if tokens and tokens[0].type == "front_matter":
        meta, warning = front_matter.parse(tokens.pop(0).content)
        if warning:
            ctx.warn(warning)
    tree = fold(_take_footnotes(tokens, ctx))
    title = None
    if tree and tree[0].token.type == "heading_open" and tree[0].token.tag == "h1":
        inline = tree.pop(0).children
        title = (
            model.plain_text(convert_inline(inline[0].token.children or [], ctx)[0]).strip() if inline else ""
        )
    conv = BlockConverter(ctx)
    nodes = conform.keep_allowed("document", conv.blocks(tree, "document"), ctx.warn)
    _fill_annotations(conv, ctx)
    document = assign_keys({"object": "document", "data": {}, "nodes": nodes})
    hint_styles = {str(hint["key"]): written for hint, written in ctx.restyled if "key" in hint}
    return ParsedPage(document, title, meta, ctx.refs.links, ctx.refs.files, ctx.warnings, hint_styles)
