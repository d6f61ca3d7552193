"""What a run sends to the translator: the human text of pages and documents as segments, and how each
translation goes back in its place (docs/translations.md, "What is translated").

A segment is one block's inline content (a paragraph, a heading, a list item's paragraph, a table cell's
paragraph, a caption...) or one plain-text field (a page's title or description, a tab's title, an
image's alt text, a table column's title). Everything else — the tree, ids, slugs, keys, block types,
link targets, code blocks, inline code, expressions, embeds, OpenAPI blocks — is copied as it is.
"""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.markdown.model import normalize_inlines
from bindery.engines.translation import markup
from bindery.engines.translation.markup import Encoded, Protect, no_terms

Node = dict[str, Any]
# Blocks whose content is code, data or a reference, not prose.
SKIP_BLOCKS = frozenset({
    "code", "math", "swagger", "openapi-operation", "openapi-schemas", "openapi-webhook", "integration",
    "reusable-content", "embed", "drawing", "file", "divider", "content-ref",
})
BLOCK_TEXT_DATA = {"tabs-item": ("title",), "image": ("alt",), "stepper-step": ("title",)}
INLINE_TEXT_DATA = {"inline-image": ("alt", "caption"), "button": ("label",)}
_WORD = re.compile(r"\w+")


@dataclass
class Segment:
    encoded: Encoded
    apply: Callable[[str], None]  # puts a translation of `encoded.text` in place

    @property
    def text(self) -> str:
        return self.encoded.text

    @property
    def words(self) -> int:
        """The words of its prose (placeholders and markup left out)."""
        return len(_WORD.findall(html.unescape(re.sub(r"<[^>]*>", " ", self.encoded.text))))


@dataclass
class Collector:
    protect: Protect = no_terms
    segments: list[Segment] = field(default_factory=list)

    def text(self, holder: dict[str, Any], key: str) -> None:
        value = holder.get(key)
        if not isinstance(value, str):
            return
        encoded = markup.encode_text(value, self.protect)
        if encoded.translatable:
            self.segments.append(Segment(encoded, lambda done: holder.__setitem__(
                key, markup.decode_text(encoded, done))))

    def _inlines(self, block: Node) -> None:
        encoded = markup.encode(block["nodes"], self.protect)
        if encoded.translatable:
            self.segments.append(Segment(encoded, lambda done: block.__setitem__(
                "nodes", normalize_inlines(markup.decode(encoded, done)))))
        self._inline_data(block["nodes"])

    def _inline_data(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if node.get("object") != "inline":
                continue
            for key in INLINE_TEXT_DATA.get(node.get("type", ""), ()):
                self.text(node.setdefault("data", {}), key)
            self._inline_data(node.get("nodes") or [])

    def block(self, node: Node) -> None:
        kind = node.get("type", "")
        if node.get("object") != "block" or kind in SKIP_BLOCKS:
            return
        data = node.get("data")
        if isinstance(data, dict):
            for key in BLOCK_TEXT_DATA.get(kind, ()):
                self.text(data, key)
            if kind == "table":
                for column in (data.get("definition") or {}).values():
                    if isinstance(column, dict):
                        self.text(column, "title")
        children = node.get("nodes") or []
        if any(child.get("object") in ("text", "inline") for child in children):
            self._inlines(node)
        else:
            for child in children:
                self.block(child)
        for fragment in node.get("fragments") or []:
            for child in fragment.get("nodes") or []:
                self.block(child)

    def document(self, document: Node) -> None:
        for node in document.get("nodes") or []:
            self.block(node)


def protect_terms(terms: Mapping[str, str]) -> Protect:
    """A glossary as placeholders (for translators without glossaries): each source term, as a whole word
    and in any case, comes back as its translation."""
    if not terms:
        return no_terms
    by_lower = {source.lower(): target for source, target in terms.items()}
    pattern = re.compile(r"(?<!\w)(" + "|".join(
        re.escape(term) for term in sorted(terms, key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE)

    def split(text: str) -> list[tuple[str, str | None]]:
        pieces: list[tuple[str, str | None]] = []
        start = 0
        for match in pattern.finditer(text):
            if match.start() > start:
                pieces.append((text[start:match.start()], None))
            pieces.append((match.group(0), by_lower[match.group(0).lower()]))
            start = match.end()
        if start < len(text):
            pieces.append((text[start:], None))
        return pieces

    return split


@dataclass
class PageWork:
    """A page's translatable parts, copied: `entry` (its tree entry) and `document` are changed in place
    as the segments' translations are applied."""

    entry: Node
    document: Node | None
    segments: list[Segment]


def page_work(entry: Mapping[str, Any], document: Node | None, protect: Protect) -> PageWork:
    collector = Collector(protect)
    own = {key: copy.deepcopy(value) for key, value in entry.items() if key != "pages"}
    collector.text(own, "title")
    collector.text(own, "description")
    doc = copy.deepcopy(document) if document is not None else None
    if doc is not None:
        collector.document(doc)
    return PageWork(own, doc, collector.segments)
