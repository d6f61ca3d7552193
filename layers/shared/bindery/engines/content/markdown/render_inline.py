"""Document inlines to GitBook-flavoured Markdown (or to the HTML used inside tables and figures).

Marks become `**`, `_`, `~~` and backticks where Markdown can say them; keyboard, superscript,
subscript and colors are always HTML (`<kbd>`, `<sup>`, `<sub>`, `<mark style="color:red;">`). The
delimiter form is checked by parsing it back: where CommonMark's flanking rules would read it otherwise
(`_` inside a word, a mark around spaces…), the whole run is written with HTML tags instead. Text is
escaped so that it reads back as the same text.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown import emoji_codes, model
from bindery.engines.content.markdown.html import attrs_text
from bindery.engines.content.markdown.model import MarkSpec, Node

if TYPE_CHECKING:
    from bindery.engines.content.markdown.references import Paths

_DELIMS = {"bold": ("**", "**"), "italic": ("_", "_"), "strikethrough": ("~~", "~~")}
_TAGS = {
    "bold": "strong",
    "italic": "em",
    "strikethrough": "s",
    "code": "code",
    "keyboard": "kbd",
    "superscript": "sup",
    "subscript": "sub",
}
_ALWAYS = frozenset("\\`*_[]<~|")
_LINE_START = frozenset("#>-+={")
_ENTITY = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_ORDERED = re.compile(r"(\d{1,9})([.)])")
_SHORTCODE = re.compile(r":([^\s:]{1,80}):")
_PARTIAL = re.compile(r"[^\s:]{1,80}")


def escape(
    text: str, *, lt_entity: bool, breaks: str, line_start: bool, block_end: bool, colon_next: bool = False
) -> str:
    """Escape text for Markdown inline content (also read by markdown-it inside HTML blocks).

    `line_start`: the text begins a line (a block, or after a hard break), where `#`, `>`, `-`, `1.`
    or leading spaces would mean something; `block_end`: it ends the block (where trailing spaces
    would be dropped). Such spaces are written as character references, as GitBook does."""
    out: list[str] = []
    at_start = line_start
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char == "\n":
            # A break that ends the block has nothing after it to break to: only `<br>` survives.
            out.append("<br>" if breaks == "br" or (block_end and index == size - 1) else "\\\n")
            at_start = breaks != "br"
            index += 1
            continue
        ordered = _ORDERED.match(text, index) if at_start else None
        if ordered:
            out.append(ordered.group(1) + "\\" + ordered.group(2))
            index += len(ordered.group(0))
            at_start = False
            continue
        if char in " \t" and (at_start or (block_end and not text[index:].strip(" \t"))):
            out.append(f"&#x{ord(char):X};")
        elif char == "<" and lt_entity:
            out.append("&#x3C;")
        elif (
            char in _ALWAYS
            or (at_start and char in _LINE_START)
            or (char == "!" and index == size - 1)
            or (char == "{" and text[index + 1 : index + 2] in ("%", ""))
        ):
            out.append("\\" + char)
        elif char == "$" and (
            text[index + 1 : index + 2] in ("$", "") or text[index - 1 : index] in ("$", "")
        ):
            out.append("\\$")
        elif char == "&" and _ENTITY.match(text, index):
            out.append("\\&")
        elif char == ":" and _shortcode_at(text, index, colon_next):
            out.append("\\:")
        else:
            out.append(char)
        at_start = False
        index += 1
    return "".join(out)


def _shortcode_at(text: str, index: int, colon_next: bool) -> bool:
    """A colon that starts an emoji shortcode, or would with the emoji (`:smile:`) written next."""
    match = _SHORTCODE.match(text, index)
    if match:
        return emoji_codes.is_name(match.group(1))
    return colon_next and _PARTIAL.fullmatch(text, index + 1) is not None


def code_span(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = (
        text.startswith("`")
        or text.endswith("`")
        or (text.startswith(" ") and text.endswith(" ") and text.strip(" ") != "")
    )
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"


def link_destination(url: str) -> str:
    if url and not re.search(r"[\s()<>\\]|\{%", url):
        return url
    escaped = url.replace("\\", "\\\\").replace("<", "\\<").replace(">", "\\>").replace("{%", "\\{%")
    return "<" + escaped + ">"


@dataclass
class Notes:
    """Annotation bodies, numbered in document order, written as footnotes after the content."""

    bodies: list[list[Node]] = field(default_factory=list)

    def add(self, body: list[Node]) -> int:
        self.bodies.append(body)
        return len(self.bodies)


def _mark_open(spec: MarkSpec, tags: bool, before: str) -> str:
    kind = spec[0]
    if kind == "color":
        style = "".join(
            f"{name}:{value};"
            for name, value in (("color", spec[1]), ("background-color", spec[2]))
            if value != "default"
        )
        return f'<mark style="{style}">' if style else "<mark>"
    if tags or kind not in _DELIMS:
        return f"<{_TAGS[kind]}>"
    if kind == "italic" and before[-1:].isalnum():
        return "*"
    return _DELIMS[kind][0]


def _mark_close(spec: MarkSpec, opened: str) -> str:
    if spec[0] == "color":
        return "</mark>"
    if opened.startswith("<"):
        return f"</{_TAGS[spec[0]]}>"
    return opened


class InlineRenderer:
    """Renders inline content. `check` parses the delimiter form back (see the module docstring)."""

    def __init__(self, paths: Paths, notes: Notes, check: Callable[[str], list[Node]] | None = None) -> None:
        self.paths = paths
        self.notes = notes
        self.check = check

    def render(self, nodes: list[Node], *, html: bool = False, breaks: str = "hard") -> str:
        """Inline content of one block. `html`: inside an HTML block (marks as tags, `<` as `&#x3C;`);
        `breaks`: "hard" writes a line break as a backslash and a newline, "br" as `<br>`."""
        if html or self.check is None:
            return self._render(nodes, tags=html, lt_entity=html, breaks=breaks, block=True)
        notes = len(self.notes.bodies)
        written = self._render(nodes, tags=False, lt_entity=False, breaks=breaks, block=True)
        if _shape(self.check(written)) == _shape(model.normalize_inlines(copy.deepcopy(nodes))):
            return written
        del self.notes.bodies[notes:]
        return self._render(nodes, tags=True, lt_entity=False, breaks=breaks, block=True)

    def _render(self, nodes: list[Node], *, tags: bool, lt_entity: bool, breaks: str, block: bool) -> str:
        flat = _flatten(nodes)
        out: list[str] = []
        stack: list[tuple[MarkSpec, str]] = []
        line_start = block
        for index, (item, marks) in enumerate(flat):
            if item["object"] == "inline":
                if "nodes" in item:  # links and annotations: marks do not cross their bounds
                    while stack:
                        spec, opened = stack.pop()
                        out.append(_mark_close(spec, opened))
                    inner = self._render(
                        item["nodes"], tags=tags, lt_entity=lt_entity, breaks=breaks, block=False
                    )
                    out.append(self._container(item, inner, html=lt_entity))
                else:
                    out.append(self.void(item))
                line_start = False
                continue
            desired = set(marks)
            code = ("code",) in desired and not tags and "\n" not in item["text"]
            keep = 0
            while keep < len(stack) and stack[keep][0] in desired:
                keep += 1
            while len(stack) > keep:
                spec, opened = stack.pop()
                out.append(_mark_close(spec, opened))
            present = {spec for spec, _ in stack}
            for spec in model.order_specs(desired - present - ({("code",)} if code else set())):
                opened = _mark_open(spec, tags, "".join(out[-1:]))
                stack.append((spec, opened))
                out.append(opened)
            value = item["text"]
            if code:
                out.append(code_span(value))
            else:
                out.append(
                    escape(
                        value,
                        lt_entity=lt_entity,
                        breaks=breaks,
                        line_start=line_start,
                        block_end=block and index == len(flat) - 1,
                        colon_next=index + 1 < len(flat) and flat[index + 1][0].get("type") == "emoji",
                    )
                )
            line_start = value.endswith("\n") and breaks != "br"
        while stack:
            spec, opened = stack.pop()
            out.append(_mark_close(spec, opened))
        return "".join(out)

    def _container(self, node: Node, inner: str, *, html: bool) -> str:
        if node["type"] == "annotation":
            bodies = node.get("fragments") or [{}]
            number = self.notes.add(bodies[0].get("nodes") or [model.paragraph()])
            return f'<a data-footnote-ref href="#user-content-fn-{number}">{inner}</a>'
        url = self.paths.url(node["data"]["ref"])
        if html:
            return f"<a{attrs_text([('href', url)])}>{inner}</a>"
        return f"[{inner}]({link_destination(url)})"

    def void(self, node: Node) -> str:  # noqa: PLR0911 - one return per inline type
        kind, data = node["type"], node["data"]
        if kind == "emoji":
            name = emoji_codes.name_for_code(str(data["code"]))
            if name is not None:
                return f":{name}:"
            try:
                return "".join(chr(int(part, 16)) for part in str(data["code"]).split("-"))
            except (ValueError, OverflowError):
                return ""
        if kind == "inline-math":
            return f"$${data['formula']}$$"
        if kind == "expression":
            return f'<code class="expression">{_plain(str(data["expression"]))}</code>'
        if kind == "icon":
            style = f"color:{data['color']};" if data.get("color") else None
            attrs = attrs_text([("class", "fa-" + str(data["icon"])), ("style", style)])
            return f"<i{attrs}>:{data['icon']}:</i>"
        if kind == "inline-image":
            return self.image(data)
        if kind == "mention":
            url = self.paths.url(data["ref"])
            return f'[{_plain(url)}]({link_destination(url)} "mention")'
        if kind == "button":
            url = self.paths.url(data["ref"])
            attrs = attrs_text(
                [
                    ("href", url or None),
                    ("class", f"button {data.get('kind', 'primary')}"),
                    ("data-icon", data.get("icon")),
                ]
            )
            return f"<a{attrs}>{_plain(str(data.get('label', '')))}</a>"
        return ""

    def image(self, data: dict[str, Any]) -> str:
        img = (
            "<img"
            + attrs_text(
                [
                    ("src", self.paths.url(data["ref"])),
                    ("alt", data.get("alt", "")),
                    ("data-size", data.get("size")),
                    ("data-caption", data.get("caption")),
                ]
            )
            + ">"
        )
        if "refDark" not in data:
            return img
        dark = attrs_text(
            [("srcset", self.paths.url(data["refDark"])), ("media", "(prefers-color-scheme: dark)")]
        )
        return f"<picture><source{dark}>{img}</picture>"


def _plain(text: str) -> str:
    """Text inside an inline tag whose content is read as plain text (labels, expressions)."""
    return escape(text, lt_entity=True, breaks="br", line_start=False, block_end=False)


def _shape(nodes: list[Node]) -> Any:
    """What a round trip of inline content must keep (references aside: they depend on resolvers)."""
    from bindery.engines.content.markdown.block_keys import strip_keys

    def project(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: project(v) for k, v in value.items() if k not in ("ref", "refDark", "fragments")}
        if isinstance(value, list):
            return [project(v) for v in value]
        return value

    return project(strip_keys(nodes))


def _flatten(nodes: list[Node]) -> list[tuple[Node, tuple[MarkSpec, ...]]]:
    flat: list[tuple[Node, tuple[MarkSpec, ...]]] = []
    for node in nodes:
        if node["object"] == "text":
            for leaf in node["leaves"]:
                if leaf["text"]:
                    flat.append((leaf, tuple(model.mark_spec(m) for m in leaf["marks"])))
        else:
            flat.append((node, ()))
    return flat
