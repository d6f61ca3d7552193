"""PDF export of a space's content (`GET …/pdf`): a title page listing the pages, then each page on a new
sheet under its title, with one outline entry (bookmark) per page.

    render_pdf("Handbook", [("Install", document), ...], load_file) -> bytes

`pages` are (title, JSON document) in tree order; `load_file(file_id)` returns a file's bytes and content
type, or None. Every block type of the reference spec prints (writer.py): headings, paragraphs with
their marks and links, nested lists, code, tables, images (PNG/JPEG/GIF files), hints, quotes, dividers,
tabs, steps and expandables as titled sections; an unknown block prints its text. Text is limited to what
the core fonts show (text.py). fpdf2 is imported here, on the first PDF, not when the module loads,
so that functions which never render a PDF do not pay for it at cold start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

LoadFile = Callable[[str], tuple[bytes, str] | None]
MARGIN = 18.0  # mm


def render_pdf(title: str, pages: Sequence[tuple[str, Any]], load_file: LoadFile) -> bytes:
    from fpdf import FPDF

    from bindery.engines.content.pdf.text import ENCODING, pdf_text
    from bindery.engines.content.pdf.writer import LINE, MUTED, DocumentWriter

    class Pdf(FPDF):
        def footer(self) -> None:
            if self.page > 1:
                self.set_y(-MARGIN / 2 - 4)
                self.set_font("helvetica", "", 8)
                self.set_text_color(*MUTED)
                self.cell(0, 4, pdf_text(f"{title} - {self.page}"), align="C")
                self.set_text_color(0, 0, 0)

    pdf = Pdf(format="A4", unit="mm")
    pdf.core_fonts_encoding = ENCODING
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(True, margin=MARGIN)
    pdf.set_title(title)
    pdf.set_creator("Bindery")
    writer = DocumentWriter(pdf, load_file)

    pdf.add_page()
    pdf.set_y(70)
    writer.font(size=26, bold=True)
    pdf.multi_cell(0, 12, pdf_text(title), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(10)
    links = [pdf.add_link() for _ in pages]
    for (page_title, _), link in zip(pages, links, strict=True):
        writer.font()
        pdf.cell(0, LINE + 1, pdf_text(page_title), link=link, new_x="LMARGIN", new_y="NEXT")

    for (page_title, document), link in zip(pages, links, strict=True):
        pdf.add_page()
        pdf.set_link(link, page=pdf.page)
        pdf.start_section(page_title or "Untitled", level=0)
        writer.font(size=22, bold=True)
        pdf.multi_cell(0, 10, pdf_text(page_title), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        writer.document(document)
    return bytes(pdf.output())
