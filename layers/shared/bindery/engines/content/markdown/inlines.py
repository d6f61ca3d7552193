"""markdown-it inline tokens to document inlines: text leaves with marks, links and inline nodes.

`InlineBuilder` receives events (text, mark on/off, open/close a link or annotation, a void inline) and
builds the inline nodes; `convert_inline` feeds it markdown-it's tokens, including the inline HTML
GitBook writes (`<mark style="color:red;">`, `<kbd>`, `<img data-size="line">`, `<a class="button">`,
`<i class="fa-github">`, `<code class="expression">`, `<a data-footnote-ref>`…).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown import html, model
from bindery.engines.content.markdown.model import MarkSpec, Node

if TYPE_CHECKING:
    from markdown_it.token import Token

    from bindery.engines.content.markdown.context import ParseContext

_SIMPLE_MARKS = {
    "strong": "bold",
    "b": "bold",
    "em": "italic",
    "i": "italic",
    "s": "strikethrough",
    "del": "strikethrough",
    "strike": "strikethrough",
    "code": "code",
    "kbd": "keyboard",
    "sup": "superscript",
    "sub": "subscript",
}
_TOKEN_MARKS = {"strong": "bold", "em": "italic", "s": "strikethrough"}
_ALLOWED_IN = {"link": frozenset({"inline-image"}), "annotation": frozenset()}
_FOOTNOTE_HREF = re.compile(r"#user-content-fn-(.+)")
_LAST_WORD = re.compile(r"\S+$")
DARK_MEDIA = "(prefers-color-scheme: dark)"


def parse_style(style: str | None) -> dict[str, str]:
    result: dict[str, str] = {}
    for part in (style or "").split(";"):
        name, _, value = part.partition(":")
        if name.strip() and value.strip():
            result[name.strip().lower()] = value.strip()
    return result


def color(value: str | None) -> str:
    return value if value in model.COLORS else "default"


@dataclass
class _Frame:
    kind: str  # root, link, annotation, capture
    data: dict[str, Any] = field(default_factory=dict)
    items: list[Node] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)


class InlineBuilder:
    def __init__(self, ctx: ParseContext) -> None:
        self.ctx = ctx
        self.frames = [_Frame("root")]
        self.marks: list[MarkSpec] = []
        self.dark_source: str | None = None
        self.anchor_id: str | None = None

    # --- events -------------------------------------------------------------------------------
    def text(self, value: str, extra: MarkSpec | None = None) -> None:
        if not value:
            return
        frame = self.frames[-1]
        if frame.kind == "capture":
            frame.captured.append(value)
            return
        specs = [*self.marks, *([extra] if extra else [])]
        colors = [spec for spec in specs if spec[0] == "color"]
        active = {spec for spec in specs if spec[0] != "color"} | set(colors[-1:])
        frame.items.append(model.text(value, model.sorted_marks(active)))

    def push_mark(self, spec: MarkSpec) -> None:
        self.marks.append(spec)

    def pop_mark(self, kind: str) -> None:
        for index in range(len(self.marks) - 1, -1, -1):
            if self.marks[index][0] == kind:
                del self.marks[index]
                return

    def add(self, node: Node) -> None:
        """A void inline: where the open link or annotation does not allow it, split them around it."""
        closed: list[_Frame] = []
        while self.frames[-1].kind in _ALLOWED_IN and node["type"] not in _ALLOWED_IN[self.frames[-1].kind]:
            frame = self.frames[-1]
            self._close_frame()
            closed.append(frame)
        if self.frames[-1].kind == "capture":
            return
        self.frames[-1].items.append(node)
        for frame in reversed(closed):
            self.frames.append(_Frame(frame.kind, frame.data))

    def open(self, kind: str, data: dict[str, Any] | None = None) -> str:
        """Opens a frame and returns "frame", or "none" where none may open (no link in a link, nothing
        in a capture): what is inside then goes to the enclosing frame."""
        if any(f.kind == "capture" for f in self.frames) or (
            kind in ("link", "annotation") and any(f.kind in ("link", "annotation") for f in self.frames)
        ):
            return "none"
        self.frames.append(_Frame(kind, data or {}))
        return "frame"

    def close(self) -> None:
        if len(self.frames) > 1:
            self._close_frame()

    def _close_frame(self) -> None:
        frame = self.frames.pop()
        parent = self.frames[-1].items
        if frame.kind == "link":
            parent.append(model.inline("link", {"ref": frame.data["ref"]}, frame.items or [model.text()]))
        elif frame.kind == "annotation":
            node = model.inline("annotation", {}, frame.items or [model.text()], fragments=[])
            self.ctx.annotations.append((node, frame.data["label"]))
            parent.append(node)
        elif frame.kind == "capture":
            made = frame.data["make"]("".join(frame.captured))
            if made is not None and self.frames[-1].kind != "capture":
                self.frames[-1].items.append(made)

    def annotate_last_word(self, label: str) -> None:
        """`word[^1]`: the word just before a footnote reference becomes the annotated text."""
        if label in self.ctx.expanding:
            self.text(f"[^{label}]")
            return
        items = self.frames[-1].items
        word: list[Node] = []
        if items and items[-1]["object"] == "text":
            last = items[-1]["leaves"][-1]
            match = _LAST_WORD.search(last["text"])
            if match:
                items[-1] = model.text(last["text"][: match.start()], last["marks"])
                word = [model.text(match.group(0), last["marks"])]
        node = model.inline("annotation", {}, word or [model.text()], fragments=[])
        self.ctx.annotations.append((node, label))
        self.add(node)

    def finish(self) -> list[Node]:
        while len(self.frames) > 1:
            self._close_frame()
        return model.normalize_inlines(self.frames[0].items)


class _Walker:
    """Feeds a markdown-it inline token stream to an `InlineBuilder`."""

    def __init__(self, builder: InlineBuilder) -> None:
        self.b = builder
        self.ctx = builder.ctx
        self.closers: dict[str, list[str]] = {}
        self.links: list[str] = []

    def walk(self, tokens: list[Token]) -> None:
        for token in tokens:
            self.token(token)

    def token(self, token: Token) -> None:  # noqa: PLR0912 - one branch per token type
        kind, b = token.type, self.b
        if kind == "text":
            b.text(token.content)
        elif kind == "softbreak":
            b.text(" ")
        elif kind == "hardbreak":
            b.text("\n")
        elif kind == "code_inline":
            b.text(token.content, ("code",))
        elif kind.endswith("_open") and kind[:-5] in _TOKEN_MARKS:
            b.push_mark((_TOKEN_MARKS[kind[:-5]],))
        elif kind.endswith("_close") and kind[:-6] in _TOKEN_MARKS:
            b.pop_mark(_TOKEN_MARKS[kind[:-6]])
        elif kind == "link_open":
            self.link_open(token)
        elif kind == "link_close":
            if self.links.pop() != "none":
                b.close()
        elif kind == "image":
            alt = "".join(child.content for child in token.children or [])
            data: dict[str, Any] = {"ref": self.ctx.refs.file(str(token.attrGet("src") or ""))}
            if alt:
                data["alt"] = alt
            if token.attrGet("title"):
                data["caption"] = str(token.attrGet("title"))
            b.add(model.inline("inline-image", data))
        elif kind == "html_inline":
            self.html_tag(token.content)
        elif kind == "footnote_ref":
            b.annotate_last_word(str(token.meta["label"]))
        elif kind == "gitbook_emoji":
            b.add(model.inline("emoji", {"code": token.meta["code"]}))
        elif kind == "gitbook_math_inline":
            b.add(model.inline("inline-math", {"formula": token.content}))

    def link_open(self, token: Token) -> None:
        href = str(token.attrGet("href") or "")
        if token.attrGet("title") == "mention":
            ref = self.ctx.refs.link(href)
            self.links.append(
                self.b.open("capture", {"make": lambda _text: model.inline("mention", {"ref": ref})})
            )
        else:
            self.links.append(self.b.open("link", {"ref": self.ctx.refs.link(href)}))

    def html_tag(self, source: str) -> None:
        tag = html.read_tag(source)
        if tag is None:
            return
        if tag.closing:
            for action in reversed(self.closers.get(tag.name, [])[-1:]):
                self.closers[tag.name].pop()
                if action == "frame":
                    self.b.close()
                elif action.startswith("mark:"):
                    self.b.pop_mark(action[5:])
            return
        action = self.open_tag(tag)
        if tag.name not in html.VOID_ELEMENTS and not source.rstrip().endswith("/>"):
            self.closers.setdefault(tag.name, []).append(action)

    def open_tag(self, tag: html.TagInfo) -> str:
        name, attrs, b = tag.name, tag.attrs, self.b
        classes = (attrs.get("class") or "").split()
        if name == "a":
            return self.anchor(attrs, classes)
        if name == "i" and any(c.startswith("fa-") for c in classes):
            icon = next(c for c in classes if c.startswith("fa-"))[3:]
            data = {"icon": icon}
            style = parse_style(attrs.get("style"))
            if "color" in style:
                data["color"] = color(style["color"])
            return b.open("capture", {"make": lambda _text: model.inline("icon", data)})
        if name == "code" and "expression" in classes:
            return b.open("capture", {"make": lambda text: model.inline("expression", {"expression": text})})
        if name == "mark":
            style = parse_style(attrs.get("style"))
            b.push_mark(("color", color(style.get("color")), color(style.get("background-color"))))
            return "mark:color"
        if name in _SIMPLE_MARKS:
            b.push_mark((_SIMPLE_MARKS[name],))
            return "mark:" + _SIMPLE_MARKS[name]
        if name == "br":
            b.text("\n")
        elif name == "source" and attrs.get("media") == DARK_MEDIA:
            b.dark_source = (attrs.get("srcset") or "").strip()
        elif name == "img":
            b.add(self.image(attrs))
        return "none"

    def image(self, attrs: dict[str, str | None]) -> Node:
        data: dict[str, Any] = {"ref": self.ctx.refs.file(attrs.get("src") or "")}
        if self.b.dark_source:
            data["refDark"] = self.ctx.refs.file(self.b.dark_source)
            self.b.dark_source = None
        for attr, key in (("alt", "alt"), ("data-caption", "caption")):
            if attrs.get(attr):
                data[key] = attrs[attr]
        if attrs.get("data-size") in ("original", "line"):
            data["size"] = attrs["data-size"]
        return model.inline("inline-image", data)

    def anchor(self, attrs: dict[str, str | None], classes: list[str]) -> str:
        href, b = attrs.get("href"), self.b
        if "data-footnote-ref" in attrs:
            match = _FOOTNOTE_HREF.match(href or "")
            return b.open("annotation", {"label": match.group(1) if match else href or ""})
        if "button" in classes:
            ref = self.ctx.refs.link(href or "")
            kind = "secondary" if "secondary" in classes else "primary"
            icon = attrs.get("data-icon")

            def make(label: str) -> Node:
                data: dict[str, Any] = {"label": label, "kind": kind, "ref": ref}
                if icon:
                    data["icon"] = icon
                return model.inline("button", data)

            return b.open("capture", {"make": make})
        if attrs.get("id") and href == "#" + str(attrs["id"]):
            b.anchor_id = attrs["id"]
            return b.open("capture", {"make": lambda _text: None})
        if href is None:
            return "none"
        ref = self.ctx.refs.link(href)
        if "data-mention" in attrs or attrs.get("title") == "mention":
            return b.open("capture", {"make": lambda _text: model.inline("mention", {"ref": ref})})
        return b.open("link", {"ref": ref})


def convert_inline(tokens: list[Token], ctx: ParseContext) -> tuple[list[Node], str | None]:
    """Inline nodes of an `inline` token's children, and the heading anchor id found among them
    (`## Title <a href="#id" id="id"></a>`: the space before the anchor is not part of the title)."""
    builder = InlineBuilder(ctx)
    _Walker(builder).walk(tokens)
    nodes = builder.finish()
    if builder.anchor_id is not None and nodes[-1]["leaves"][-1]["text"].endswith(" "):
        last = nodes[-1]["leaves"][-1]
        nodes[-1] = {
            "object": "text",
            "leaves": [
                *nodes[-1]["leaves"][:-1],
                *([model.leaf(last["text"][:-1], last["marks"])] if last["text"] != " " else []),
            ]
            or [model.leaf("")],
        }
    return nodes, builder.anchor_id


def parse_inline_source(source: str, ctx: ParseContext) -> tuple[list[Node], str | None]:
    """Inline nodes of a source fragment (the content of a `<td>`, `<figcaption>`, `<summary>`…)."""
    tokens = ctx.md.parseInline(source.strip(), ctx.env)
    children = tokens[0].children if tokens and tokens[0].children else []
    return convert_inline(children, ctx)
