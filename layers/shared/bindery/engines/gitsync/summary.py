"""SUMMARY.md, the table of contents of a Git Sync repository, read and written.

    # Table of contents            <- the first level-1 heading: ignored

    * [Introduction](README.md)    <- a page, from its file
    * [Guides](guides/README.md)
      * [Install](guides/install.md "Sidebar title")   <- nested by list nesting
      * Obsolete                   <- no link: an empty page
    * [Blog](https://example.com)  <- an external URL: a link page

    ## Reference                    <- any other heading: a group, holding the items below it
    ## Get Started <a href="#start" id="start"></a>   <- GitBook's anchor: the group's slug

    * [API](reference/api.md)

    ---                             <- ends the group: the items below are top-level pages again

markdown-it-py parses it; an item's title is the plain text of its first line (of its link, when it has
one; inline HTML left out), its target the link's destination as written (relative to SUMMARY.md,
percent-encoded; `/…` relative to the project root). GitBook writes a group's anchor only when its slug
is not the one its title gives, so `render_summary` does the same.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

_ESCAPE = re.compile(r"([\\`*_\[\]<>&!#|~])")
_MARKER = re.compile(r"^(\d*)([-+.)=])")  # `- x`, `1. x`, `1) x`: would read as a list or heading
_LIST_TYPES = ("bullet_list", "ordered_list")
# GitBook's `<a href="#slug" id="slug"></a>` (older versions: `<a id="slug"></a>`) after a group's title
_ANCHOR = re.compile(r"""<a\s[^>]*?\bid\s*=\s*["']([^"'/\s]+)["']""", re.IGNORECASE)


@dataclass
class Entry:
    """One list item: a title, the link's destination as written (None without a link), its items."""

    title: str
    target: str | None = None
    children: list[Entry] = field(default_factory=list)


@dataclass
class Part:
    """A group (`## Title`), or the top-level items before any group or after a `---` (title None)."""

    title: str | None
    entries: list[Entry] = field(default_factory=list)
    slug: str | None = None  # a group's anchor, when its heading has one


def _plain(node: SyntaxTreeNode) -> str:
    """The text a reader sees: inline HTML (GitBook's anchors, `<mark>`…) is no part of a title."""
    if node.type in ("text", "code_inline"):
        return node.content
    if node.type in ("softbreak", "hardbreak"):
        return " "
    return "".join(_plain(child) for child in node.children)


def _first_link(node: SyntaxTreeNode) -> SyntaxTreeNode | None:
    if node.type == "link":
        return node
    for child in node.children:
        found = _first_link(child)
        if found is not None:
            return found
    return None


def _entry(item: SyntaxTreeNode) -> Entry | None:
    inline = next((c.children[0] for c in item.children if c.type == "paragraph" and c.children), None)
    entry = None
    if inline is not None:
        link = _first_link(inline)
        title = " ".join(_plain(link if link is not None else inline).split())
        target = str(link.attrs.get("href", "")) if link is not None else None
        entry = Entry(title, target)  # an empty title is the importer's to fill (the page's H1…)
    children = [e for c in item.children if c.type in _LIST_TYPES for e in _entries(c)]
    if entry is None:
        return Entry("Untitled", None, children) if children else None
    entry.children = children
    return entry


def _entries(listing: SyntaxTreeNode) -> list[Entry]:
    return [e for item in listing.children if (e := _entry(item)) is not None]


def parse_summary(text: str) -> list[Part]:
    """The parts of a SUMMARY.md, in order (empty parts left out)."""
    root = SyntaxTreeNode(MarkdownIt("commonmark").parse(text))
    parts = [Part(None)]
    seen_heading = False
    for node in root.children:
        if node.type == "heading":
            if node.tag == "h1" and not seen_heading:
                seen_heading = True
                continue
            seen_heading = True
            html = "".join(n.content for n in node.walk() if n.type == "html_inline")
            anchor = _ANCHOR.search(html)
            parts.append(Part(" ".join(_plain(node).split()) or "Untitled",
                              slug=anchor.group(1) if anchor else None))
        elif node.type == "hr":
            parts.append(Part(None))
        elif node.type in _LIST_TYPES:
            parts[-1].entries.extend(_entries(node))
    return [part for part in parts if part.title is not None or part.entries]


# --- writing --------------------------------------------------------------------------------------------
def escape(title: str, *, line_start: bool = False) -> str:
    """A title as Markdown text that reads back as the same plain text (at the start of a line: no
    list marker either)."""
    text = _ESCAPE.sub(r"\\\1", " ".join(title.split()))
    if line_start:
        text = _MARKER.sub(r"\1\\\2", text)
    return text


def destination(url: str) -> str:
    return f"<{url}>" if re.search(r"[\s()<>]", url) else url


def _lines(entries: Iterable[Entry], depth: int) -> Iterable[str]:
    for entry in entries:
        if entry.target:
            line = f"* [{escape(entry.title)}]({destination(entry.target)})"
        else:
            line = f"* {escape(entry.title, line_start=True)}"
        yield "  " * depth + line
        yield from _lines(entry.children, depth + 1)


def _heading(title: str, slug: str | None) -> str:
    anchor = "" if slug is None else f' <a href="#{html.escape(slug)}" id="{html.escape(slug)}"></a>'
    return f"## {escape(title, line_start=True)}{anchor}"


def render_summary(parts: Iterable[Part]) -> str:
    blocks = ["# Table of contents"]
    after_group = False
    for part in parts:
        if part.title is not None:
            blocks.append(_heading(part.title, part.slug))
            after_group = True
        elif after_group:
            blocks.append("---")
            after_group = False
        if part.entries:
            blocks.append("\n".join(_lines(part.entries, 0)))
    return "\n\n".join(blocks) + "\n"
