"""What search indexes of a page: its sections, split at the document's top-level headings.

The text before the first heading is the page's own section (no anchor, titled as the page); each
heading starts a section named by its anchor (content.links.heading_anchor), so that a result links
straight to `path#anchor`. Nested blocks (list items, code lines, table cells, tabs) become lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.engines.content.links import HEADINGS, heading_anchor, plain_text


@dataclass(frozen=True)
class Section:
    anchor: str | None  # None: the page's text before its first heading
    title: str
    body: str


def block_text(node: Any) -> str:
    """A block's text: its inlines run together, its child blocks and table cells one per line."""
    if not isinstance(node, Mapping):
        return ""
    children = [*(node.get("nodes") or []), *(node.get("fragments") or [])]
    if any(isinstance(c, Mapping) and c.get("object") in ("block", "fragment") for c in children):
        return "\n".join(filter(None, (block_text(child) for child in children)))
    return plain_text(node).strip()


def sections(title: str, document: Any) -> list[Section]:
    found: list[Section] = []
    anchor: str | None = None
    heading, lines = title, list[str]()
    for block in (document or {}).get("nodes") or []:
        if isinstance(block, Mapping) and block.get("type") in HEADINGS:
            if anchor is not None or lines:
                found.append(Section(anchor, heading, "\n".join(lines)))
            anchor, heading, lines = heading_anchor(block), plain_text(block).strip(), []
        elif text := block_text(block):
            lines.append(text)
    if anchor is not None or lines:
        found.append(Section(anchor, heading, "\n".join(lines)))
    return found
