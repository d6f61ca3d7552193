"""Drawing one JSON document into an fpdf2 `FPDF` (bindery.engines.content.pdf.export puts the pages
together).

Text flows with `FPDF.write` (mixed fonts on one line, wrapped at the margins); nesting (list items,
hints, quotes, titled sections) moves the left margin. Each block starts where the previous one left the
cursor, so a list item's first paragraph follows its marker on the same line. Tables and images are in
tables.py and images.py. Imported only by `render_pdf`, so that fpdf loads only for PDFs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from bindery.engines.content.pdf.images import LoadFile, draw_image
from bindery.engines.content.pdf.tables import draw_table
from bindery.engines.content.pdf.text import pdf_text, plain_text, ref_label, ref_url

BODY = 11.0
SMALL = 9.0
LINE = 5.5  # mm per line of body text
GAP = 2.0  # mm after a block
HEADINGS = {"heading-1": 17.0, "heading-2": 14.0, "heading-3": 12.0}
LINK_COLOR = (30, 80, 200)
MUTED = (110, 110, 110)
HINTS = {"info": ("Info", (52, 109, 219)), "success": ("Tip", (34, 139, 34)),
         "warning": ("Warning", (214, 130, 0)), "danger": ("Danger", (200, 40, 40))}
MARKER = 7.0  # mm for a list marker
INDENT = 5.0  # mm for hints, quotes and sections
Node = Mapping[str, Any]


def _data(node: Node) -> Mapping[str, Any]:
    data = node.get("data")
    return data if isinstance(data, Mapping) else {}


def _children(node: Node) -> list[Any]:
    return [child for child in node.get("nodes") or [] if isinstance(child, Mapping)]


def _fragment(node: Node, name: str) -> list[Any]:
    return [child for fragment in node.get("fragments") or [] if isinstance(fragment, Mapping)
            and fragment.get("fragment") == name for child in _children(fragment)]


class DocumentWriter:
    def __init__(self, pdf: FPDF, load_file: LoadFile) -> None:
        self.pdf = pdf
        self.load_file = load_file
        self.blocks: dict[str, Callable[[Node], None]] = {
            "paragraph": self.paragraph, "heading-1": self.heading, "heading-2": self.heading,
            "heading-3": self.heading, "list-unordered": self.list, "list-ordered": self.list,
            "list-tasks": self.list, "code": self.code, "hint": self.hint, "blockquote": self.quote,
            "divider": self.divider, "table": self.table, "images": self.images, "image": self.image,
            "drawing": self.image, "tabs": self.tabs, "stepper": self.steps, "expandable": self.expandable,
            "columns": self.container, "column": self.container, "if": self.condition,
            "math": self.math, "swagger": self.api_block, "openapi-operation": self.api_block,
            "openapi-schemas": self.api_block, "openapi-webhook": self.api_block,
            "embed": self.reference, "file": self.reference, "content-ref": self.reference,
            "reusable-content": self.reference, "integration": self.integration,
        }

    # --- text ---------------------------------------------------------------------------------------------
    def font(self, *, size: float = BODY, bold: bool = False, italic: bool = False, code: bool = False,
             underline: bool = False) -> None:
        style = ("B" if bold else "") + ("I" if italic else "") + ("U" if underline else "")
        self.pdf.set_font("courier" if code else "helvetica", style, size)

    def run(self, text: str, *, height: float = LINE, link: str = "",
            color: tuple[int, int, int] | None = None, **style: Any) -> None:
        """Write `text` from the cursor in the given style, then go back to plain black."""
        self.font(**style, underline=bool(link))
        self.pdf.set_text_color(*(LINK_COLOR if link else color or (0, 0, 0)))
        self.pdf.write(height, pdf_text(text), link)
        self.pdf.set_text_color(0, 0, 0)

    def inlines(self, nodes: Sequence[Any], *, size: float = BODY, bold: bool = False, link: str = "",
                height: float = LINE) -> None:
        for node in nodes:
            if not isinstance(node, Mapping):
                continue
            if node.get("object") == "text":
                for leaf in node.get("leaves") or []:
                    marks = {mark.get("type") for mark in leaf.get("marks") or []
                             if isinstance(mark, Mapping)}
                    self.run(str(leaf.get("text") or ""), height=height, link=link, size=size,
                             bold=bold or "bold" in marks, italic="italic" in marks, code="code" in marks)
            elif node.get("object") == "inline":
                self.inline(node, size=size, bold=bold, link=link, height=height)

    def inline(self, node: Node, *, size: float, bold: bool, link: str, height: float) -> None:
        kind, data = node.get("type"), _data(node)
        if kind in ("link", "mention"):
            target = ref_url(data.get("ref")) or link
            if _children(node):
                self.inlines(_children(node), size=size, bold=bold, link=target, height=height)
            else:
                self.run(ref_label(data.get("ref")), height=height, link=target, size=size, bold=bold)
        elif kind == "button":
            self.run(f"[{data.get('label') or ref_label(data.get('ref'))}]", height=height,
                     link=ref_url(data.get("ref")), size=size, bold=True)
        elif kind in ("expression", "inline-math"):
            self.run(plain_text(node), height=height, link=link, size=size, code=True)
        elif kind == "inline-image":
            if text := plain_text(node):
                self.run(f"[{text}]", height=height, link=link, size=size, italic=True, color=MUTED)
        elif kind not in ("emoji", "icon"):  # the core fonts have neither
            self.inlines(_children(node), size=size, bold=bold, link=link, height=height)

    def end_block(self, height: float = LINE, gap: float = GAP) -> None:
        self.pdf.ln(height)
        self.pdf.ln(gap)

    @contextmanager
    def indented(self, by: float) -> Iterator[float]:
        """Move the left margin right by `by` mm for what is written inside; yields the old margin."""
        old = self.pdf.l_margin
        self.pdf.set_left_margin(old + by)
        try:
            yield old
        finally:
            self.pdf.set_left_margin(old)

    # --- blocks ---------------------------------------------------------------------------------------------
    def document(self, document: Any) -> None:
        self.all(_children(document) if isinstance(document, Mapping) else [])

    def all(self, nodes: Sequence[Any]) -> None:
        for node in nodes:
            if isinstance(node, Mapping):
                self.block(node)

    def block(self, node: Node) -> None:
        draw = self.blocks.get(str(node.get("type")))
        if draw is not None:
            draw(node)
        elif text := plain_text(node):  # a block Bindery does not know: its text, as a paragraph
            self.run(text)
            self.end_block()

    def paragraph(self, node: Node) -> None:
        self.inlines(_children(node))
        self.end_block()

    def heading(self, node: Node) -> None:
        size = HEADINGS[str(node.get("type"))]
        self.pdf.ln(GAP)
        self.inlines(_children(node), size=size, bold=True, height=size * 0.5)
        self.end_block(size * 0.5, GAP)

    def title(self, text: str, *, size: float = BODY, color: tuple[int, int, int] | None = None) -> None:
        self.run(text, bold=True, size=size, color=color)
        self.pdf.ln(LINE)

    def list(self, node: Node) -> None:
        kind = node.get("type")
        start = _data(node).get("start")
        number = start if isinstance(start, int) and not isinstance(start, bool) else 1
        for item in _children(node):
            if kind == "list-ordered":
                marker, number = f"{number}.", number + 1
            elif kind == "list-tasks":
                marker = "[x]" if _data(item).get("checked") else "[ ]"
            else:
                marker = "\u2022"
            self.pdf.set_x(self.pdf.l_margin)
            self.font()
            self.pdf.cell(MARKER, LINE, pdf_text(marker))
            with self.indented(MARKER):
                if not _children(item):
                    self.end_block(LINE, 0)
                for child in _children(item):
                    self.block(child)

    def code(self, node: Node) -> None:
        title = _data(node).get("title")
        if isinstance(title, str) and title:
            self.run(title, size=SMALL, bold=True, color=MUTED)
            self.pdf.ln(LINE)
        lines = [plain_text(line) for line in _children(node)]
        self.font(size=SMALL, code=True)
        self.pdf.set_fill_color(244, 244, 244)
        self.pdf.multi_cell(0, 4.5, pdf_text("\n".join(lines)), fill=True, align="L", padding=(1, 2),
                            new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.pdf.ln(GAP)

    def _ruled(self, nodes: Sequence[Any], color: tuple[int, int, int], label: str = "") -> None:
        """`nodes` indented, with a vertical rule in `color` on their left (when they fit on one page)."""
        top, page = self.pdf.get_y(), self.pdf.page
        with self.indented(INDENT) as left:
            self.pdf.set_x(self.pdf.l_margin)
            if label:
                self.title(label, color=color)
            self.all(nodes)
        if self.pdf.page == page:
            self.pdf.set_draw_color(*color)
            self.pdf.set_line_width(0.8)
            self.pdf.line(left + 1, top, left + 1, self.pdf.get_y() - GAP)
            self.pdf.set_line_width(0.2)
            self.pdf.set_draw_color(0, 0, 0)

    def hint(self, node: Node) -> None:
        label, color = HINTS.get(str(_data(node).get("style")), HINTS["info"])
        self._ruled(_children(node), color, label)

    def quote(self, node: Node) -> None:
        self._ruled(_children(node), (190, 190, 190))

    def divider(self, node: Node) -> None:
        y = self.pdf.get_y() + GAP
        self.pdf.set_draw_color(190, 190, 190)
        self.pdf.line(self.pdf.l_margin, y, self.pdf.w - self.pdf.r_margin, y)
        self.pdf.set_draw_color(0, 0, 0)
        self.pdf.set_y(y + 2 * GAP)

    def section(self, title: str, nodes: Sequence[Any]) -> None:
        """Tabs, steps and expandables print open: each part is a titled, indented section."""
        self.pdf.set_x(self.pdf.l_margin)
        self.title(title)
        with self.indented(INDENT):
            self.pdf.set_x(self.pdf.l_margin)
            self.all(nodes)

    def tabs(self, node: Node) -> None:
        for index, item in enumerate(_children(node), 1):
            self.section(str(_data(item).get("title") or f"Tab {index}"), _children(item))

    def steps(self, node: Node) -> None:
        for index, step in enumerate(_children(node), 1):
            self.section(f"Step {index}", _children(step))

    def expandable(self, node: Node) -> None:
        title = plain_text(_fragment(node, "expandable-title")) or "Details"
        self.section(title, _fragment(node, "expandable-body"))

    def container(self, node: Node) -> None:
        self.all(_children(node))

    def condition(self, node: Node) -> None:
        self.section(f"Shown when: {_data(node).get('expression') or ''}", _children(node))

    def math(self, node: Node) -> None:
        self.run(str(_data(node).get("formula") or ""), code=True)
        self.end_block()

    def api_block(self, node: Node) -> None:
        data = _data(node)
        what = " ".join(str(part) for part in (str(data.get("method") or "").upper(), data.get("path") or "",
                                               data.get("name") or "", ", ".join(data.get("schemas") or []))
                        if part)
        self.run("OpenAPI ", bold=True)
        self.run(what, code=True)
        if source := ref_label(data.get("ref")):
            self.run(f"  ({source})", link=ref_url(data.get("ref")), size=SMALL)
        self.end_block()

    def reference(self, node: Node) -> None:
        data = _data(node)
        ref = data.get("ref") or ({"kind": "url", "url": data["url"]} if data.get("url") else None)
        labels = {"embed": "Embed", "file": "File", "content-ref": "See", "reusable-content": "Included"}
        self.run(f"{labels.get(str(node.get('type')), 'Link')}: ", bold=True)
        self.run(plain_text(node) or ref_label(ref), link=ref_url(ref))
        self.end_block()

    def integration(self, node: Node) -> None:
        data = _data(node)
        self.run("Integration: ", bold=True)
        self.run(" ".join(str(data.get(name) or "") for name in ("integration", "block")).strip())
        self.end_block()

    def table(self, node: Node) -> None:
        draw_table(self, node)

    def images(self, node: Node) -> None:
        for image in _children(node):
            self.image(image)

    def image(self, node: Node) -> None:
        data = _data(node)
        caption = plain_text(_fragment(node, "caption"))
        if not draw_image(self.pdf, data.get("ref"), self.load_file):
            # Not drawable (a URL, a missing file, not PNG/JPEG/GIF): its caption or description.
            text = caption or str(data.get("alt") or "") or ref_label(data.get("ref"))
            self.run(f"[Image: {text}]", italic=True, color=MUTED, link=ref_url(data.get("ref")))
            self.end_block()
            return
        if caption:
            self.run(caption, size=SMALL, italic=True, color=MUTED)
            self.pdf.ln(LINE)
        self.pdf.ln(GAP)
