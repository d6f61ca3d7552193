"""The HTML that GitBook writes inside Markdown: single tags, and small element trees with positions.

Built on the standard library's tolerant `html.parser`. An element keeps the source offsets of its
content, so that the inline content of a `<td>` or `<figcaption>` is parsed by markdown-it like the rest
of the page (entities, emphasis, GitBook's own inline tags) rather than by a second HTML grammar.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID_ELEMENTS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)
BLOCK_ELEMENTS = frozenset(
    {
        "p",
        "div",
        "ul",
        "ol",
        "li",
        "table",
        "thead",
        "tbody",
        "tr",
        "td",
        "th",
        "figure",
        "figcaption",
        "pre",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "hr",
        "details",
        "summary",
    }
)


@dataclass
class Element:
    name: str
    attrs: dict[str, str | None]
    start: int  # offset of "<"
    inner_start: int  # offset just after the start tag
    inner_end: int = -1  # offset of the end tag ("<" of "</name>"), or of the element's end
    children: list[Element] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # direct text, entities decoded

    def find(self, name: str) -> Element | None:
        for child in self.children:
            if child.name == name:
                return child
            found = child.find(name)
            if found is not None:
                return found
        return None

    def attr(self, name: str) -> str | None:
        return self.attrs.get(name)


@dataclass(frozen=True)
class TagInfo:
    name: str
    attrs: dict[str, str | None]
    closing: bool


class _TagReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tag: TagInfo | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.tag is None:
            self.tag = TagInfo(tag, dict(attrs), closing=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.tag is None:
            self.tag = TagInfo(tag, {}, closing=True)


def read_tag(source: str) -> TagInfo | None:
    """The one tag of an html_inline token (`<mark style="…">`, `</a>`); None for comments and the like."""
    reader = _TagReader()
    reader.feed(source)
    reader.close()
    return reader.tag


class _TreeBuilder(HTMLParser):
    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.line_starts = [0]
        for index, char in enumerate(source):
            if char == "\n":
                self.line_starts.append(index + 1)
        self.root = Element("#root", {}, 0, 0)
        self.stack = [self.root]

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        text = self.get_starttag_text() or ""
        element = Element(tag, dict(attrs), start, start + len(text))
        # Implicitly close a <p> or <li> left open, as browsers do.
        if tag in ("p", "li", "td", "th", "tr") and self.stack[-1].name == tag:
            self._close(self.stack[-1].name, start)
        self.stack[-1].children.append(element)
        if tag in VOID_ELEMENTS or text.endswith("/>"):
            element.inner_end = element.inner_start
        else:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        text = self.get_starttag_text() or ""
        element = Element(tag, dict(attrs), start, start + len(text), start + len(text))
        self.stack[-1].children.append(element)

    def _close(self, tag: str, offset: int) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].name == tag:
                for element in self.stack[depth:]:
                    element.inner_end = offset
                del self.stack[depth:]
                return

    def handle_endtag(self, tag: str) -> None:
        self._close(tag, self._offset())

    def handle_data(self, data: str) -> None:
        self.stack[-1].text.append(data)


def parse_tree(source: str) -> Element:
    builder = _TreeBuilder(source)
    builder.feed(source)
    builder.close()
    for element in builder.stack[1:]:
        element.inner_end = len(source)
    builder.root.inner_end = len(source)
    return builder.root


def inner(source: str, element: Element) -> str:
    return source[element.inner_start : element.inner_end]


def end(source: str, element: Element) -> int:
    """Offset just after the element (after its end tag, when it has one)."""
    if element.inner_end == element.inner_start and element.name in VOID_ELEMENTS:
        return element.inner_start
    if source.startswith("</", element.inner_end):
        close = source.find(">", element.inner_end)
        return close + 1 if close >= 0 else len(source)
    return element.inner_end


def escape_attr(value: str) -> str:
    """An attribute value; `{%` too, which would otherwise read as a GitBook tag."""
    return value.replace("&", "&#x26;").replace('"', "&#x22;").replace("<", "&#x3C;").replace("{%", "&#x7B;%")


def attrs_text(pairs: list[tuple[str, str | bool | None]]) -> str:
    """` name="value"` pairs; True writes a bare attribute, None/False nothing."""
    parts = []
    for name, value in pairs:
        if value is None or value is False:
            continue
        parts.append(f" {name}" if value is True else f' {name}="{escape_attr(value)}"')
    return "".join(parts)
