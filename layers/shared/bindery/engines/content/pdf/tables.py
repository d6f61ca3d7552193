"""Tables in the PDF: a `table` block's records in `orderIndex` order, its view's columns, one row each.

A text column's value names the fragment holding the cell's content (printed as its plain text); other
columns hold values: numbers, checkboxes, select options (their labels), users and files (ids), content
references and images (their URL or id).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from fpdf.enums import WrapMode
from fpdf.errors import FPDFException

from bindery.engines.content.pdf.text import pdf_text, plain_text, ref_label

if TYPE_CHECKING:
    from fpdf import FPDF


class TextWriter(Protocol):
    """What a table needs of the document writer (writer.DocumentWriter), named here so that the writer
    imports the tables and not the other way round."""

    pdf: FPDF

    def font(self, *, size: float = ..., bold: bool = ..., italic: bool = ..., code: bool = ...,
             underline: bool = ...) -> None: ...

    def run(self, text: str, *, height: float = ..., link: str = ...,
            color: tuple[int, int, int] | None = ..., **style: Any) -> None: ...

    def end_block(self, height: float = ..., gap: float = ...) -> None: ...

ALIGN = {"left": "LEFT", "center": "CENTER", "right": "RIGHT"}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _scalar(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "[x]" if value else "[ ]"
    if isinstance(value, int | float):
        return _number(value)
    return str(value)


def cell_text(value: Any, definition: Mapping[str, Any], fragments: Mapping[str, Any]) -> str:
    if isinstance(value, str) and definition.get("type") == "text" and value in fragments:
        return plain_text(fragments[value])
    if isinstance(value, list):
        labels = {option.get("value"): option.get("label") for option in definition.get("options") or []
                  if isinstance(option, Mapping)}
        return ", ".join(str(labels.get(item) or item) for item in value)
    if isinstance(value, Mapping):
        return ref_label(value.get("ref", value))
    return _scalar(value)


def table_rows(data: Mapping[str, Any], fragments: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """(column titles, rows of cell texts), in the view's column order and the records' order."""
    definitions = data.get("definition") or {}
    view = data.get("view") or {}
    columns = [column for column in view.get("columns") or [] if column in definitions]
    records = sorted((data.get("records") or {}).items(),
                     key=lambda item: (str(item[1].get("orderIndex") or ""), item[0]))
    rows = [[cell_text((record.get("values") or {}).get(column), definitions[column], fragments)
             for column in columns] for _, record in records]
    return [str(definitions[column].get("title") or "") for column in columns], rows


def draw_table(writer: TextWriter, node: Mapping[str, Any]) -> None:
    data = node.get("data") or {}
    fragments = {str(fragment.get("fragment")): fragment.get("nodes") or []
                 for fragment in node.get("fragments") or [] if isinstance(fragment, Mapping)}
    titles, rows = table_rows(data, fragments)
    if not titles:
        return
    definitions = data.get("definition") or {}
    columns = [column for column in (data.get("view") or {}).get("columns") or [] if column in definitions]
    aligns = tuple(ALIGN.get(str(definitions[column].get("textAlignment")), "LEFT") for column in columns)
    header = not (data.get("view") or {}).get("hideHeader")
    pdf = writer.pdf
    writer.font(size=9)
    pdf.set_x(pdf.l_margin)
    try:
        with pdf.table(width=pdf.w - pdf.l_margin - pdf.r_margin, align="LEFT", text_align=aligns,
                       first_row_as_headings=header, line_height=4.5, padding=1,
                       wrapmode=WrapMode.CHAR) as table:
            for row in ([titles] if header else []) + rows:
                table.row([pdf_text(text) for text in row])
    except FPDFException:
        # Too many columns for the page width: each record as a line of "title: value" pairs instead.
        for row in rows:
            writer.run("; ".join(f"{title}: {text}" for title, text in zip(titles, row, strict=True)), size=9)
            pdf.ln(5)
    writer.end_block(0)
