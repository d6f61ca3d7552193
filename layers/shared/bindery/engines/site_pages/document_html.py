"""A stored document (the spec's `Document`: blocks, inlines, texts with leaves and marks) as safe HTML,
the body of a published page (docs/published-sites.md, "Rendering documents").

    rendered = render_document(document, links=resolver)
    rendered.html       # markupsafe.Markup: block after block, every text escaped
    rendered.headings   # the page's headings (level 1..3, anchor id, text), for a table of contents

Safety does not depend on the document: every text and attribute value is escaped, no element or
attribute is copied from it, and a URL reaches an `href`/`src` only when it is http(s), mailto, relative
or a `#` anchor (`rendering.urls`). References to pages, files and spaces go through `links`, which knows
the site's URLs; what it cannot reach (None) is shown as plain text. Unknown node types show their text
and never fail. Pygments is imported only when a code block is rendered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from bindery.engines.site_pages.rendering.blocks import render_block
from bindery.engines.site_pages.rendering.context import LinkResolver, RenderContext
from bindery.engines.site_pages.rendering.inlines import render_inline

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Heading:
    id: str  # the anchor (unique in the page): `#id` links to it
    text: str
    level: int  # 1..3 (heading-1 → <h2>: the page title is the page's <h1>)


@dataclass(frozen=True)
class RenderedDocument:
    html: Markup
    headings: tuple[Heading, ...]


def render_document(document: Mapping[str, Any], *, links: LinkResolver, allow_embeds: bool = False,
                    scope: Mapping[str, Any] | None = None) -> RenderedDocument:
    """`document` as HTML. `allow_embeds`: embeds become sandboxed iframes (https only), otherwise links.
    `scope`: what `if` blocks and expression inlines are evaluated in (`{"space": {"vars": …},
    "page": {"vars": …}, "visitor": {"claims": …}}`); without it, as for an anonymous visitor of a space
    without variables (a condition that cannot be decided hides its block)."""
    context = RenderContext(links=links, allow_embeds=allow_embeds, scope=scope,
                            render_block=render_block, render_inline=render_inline)
    # Replacing a character keeps markup markup: the renderer escaped every text already.
    nodes = document.get("nodes") if isinstance(document, Mapping) else None
    html = Markup(_encodable(context.blocks(nodes) + context.notes_html()))  # noqa: S704
    headings = tuple(Heading(id=_encodable(anchor), text=_encodable(text), level=level)
                     for anchor, text, level in context.headings)
    return RenderedDocument(html=html, headings=headings)


def _encodable(value: str) -> str:
    """`value` as UTF-8 can carry it: a lone surrogate (JSON allows `\\ud800`) would make the response
    fail to encode, so it becomes U+FFFD."""
    return _SURROGATE.sub("\N{REPLACEMENT CHARACTER}", value)
