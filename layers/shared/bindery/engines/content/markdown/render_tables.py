"""Tables to Markdown: a GFM table when it can say everything, GitBook's one-line `<table>` otherwise.

GFM fits a grid view with a visible header, text columns aligned left/center/right and nothing else,
and cells of one paragraph on one line. Everything else of the table block (cards, hidden and typed
columns, widths, multi-block cells…) has its HTML attribute; `tables.py` reads both back.
"""

from __future__ import annotations

import html as std_html
import posixpath
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown.html import attrs_text, escape_attr
from bindery.engines.content.markdown.render_inline import escape
from bindery.engines.content.markdown.tables import column_order, row_order

if TYPE_CHECKING:
    from collections.abc import Callable

    from bindery.engines.content.markdown.model import Node
    from bindery.engines.content.markdown.references import Paths
    from bindery.engines.content.markdown.render_inline import InlineRenderer

_GFM_ALIGN = {"left": "---", "center": ":-:", "right": "--:"}


def _number(value: Any) -> str:
    return str(value) if not isinstance(value, bool) else ""


def attr(value: str) -> str:
    return escape_attr(value)


class TableRenderer:
    """Renders one table block; `cell_blocks` is the HTML renderer's (cells hold blocks), passed in so
    that this module does not import the one that imports it."""

    def __init__(self, paths: Paths, inline: InlineRenderer,
                 cell_blocks: Callable[[list[Node]], str]) -> None:
        self.paths = paths
        self.inline = inline
        self.cell_blocks = cell_blocks

    def table(self, node: Node) -> str:
        data = node["data"]
        fragments = {f.get("fragment"): f.get("nodes", []) for f in node.get("fragments", [])}
        gfm = self._gfm(data, fragments)
        return gfm if gfm is not None else self._html_table(data, fragments)

    def _gfm(self, data: dict[str, Any], fragments: dict[str, list[Node]]) -> str | None:
        view, definition = data["view"], data["definition"]
        columns = column_order(data)
        if (
            view.get("type") != "grid"
            or view.get("hideHeader")
            or set(view) - {"type", "columns", "hideHeader"}
            or set(data) - {"view", "records", "definition"}
            or view.get("columns") != columns
            or not columns
        ):
            return None
        if any(
            c["type"] != "text" or "verticalAlignment" in c or "\n" in c["title"] for c in definition.values()
        ):
            return None
        rows = []
        for rid in row_order(data):
            cells = []
            for cid in columns:
                nodes = fragments.get(data["records"][rid].get("values", {}).get(cid), [])
                if not nodes:
                    cells.append("")
                    continue
                if len(nodes) != 1 or nodes[0]["type"] != "paragraph" or nodes[0].get("data"):
                    return None
                text = self.inline.render(nodes[0].get("nodes", []), breaks="br")
                if "\n" in text or ("`" in text and "|" in text):
                    return None
                cells.append(text)
            rows.append(cells)
        titles = [
            escape(definition[c]["title"], lt_entity=False, breaks="br", line_start=True, block_end=True)
            for c in columns
        ]
        lines = [
            "| " + " | ".join(titles) + " |",
            "| "
            + " | ".join(_GFM_ALIGN.get(definition[c].get("textAlignment"), "---") for c in columns)
            + " |",
        ]
        lines += ["| " + " | ".join(cells) + " |" for cells in rows]
        return "\n".join(lines)

    def _html_table(self, data: dict[str, Any], fragments: dict[str, list[Node]]) -> str:
        view, definition = data["view"], data["definition"]
        columns = column_order(data)
        cards = view.get("type") == "cards"
        table_attrs = attrs_text(
            [
                ("data-view", "cards" if cards else None),
                ("data-card-size", "large" if cards and view.get("cardSize") == "large" else None),
                ("data-column-title-hidden", bool(cards and view.get("hideColumnTitle"))),
                ("data-header-hidden", bool(not cards and view.get("hideHeader"))),
                (
                    "data-use-new-sizing",
                    ("true" if view["useNewSizing"] else "false") if "useNewSizing" in view else None,
                ),
                (
                    "data-full-width",
                    ("true" if data["fullWidth"] else "false") if "fullWidth" in data else None,
                ),
            ]
        )
        visible = set(view.get("columns", []))
        heads = [self._th(definition[cid], cid not in visible, view) for cid in columns]
        rows = []
        for rid in row_order(data):
            values = data["records"][rid].get("values", {})
            cells = "".join(
                f"<td>{self._td(definition[cid], values.get(cid), fragments)}</td>" for cid in columns
            )
            rows.append(f"<tr>{cells}</tr>")
        return (
            f"<table{table_attrs}><thead><tr>{''.join(heads)}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )

    def _th(self, column: Node, hidden: bool, view: dict[str, Any]) -> str:
        kind, cid = column["type"], column["id"]
        width = view.get("columnWidths", {}).get(cid)
        attrs = attrs_text(
            [
                ("data-type", kind if kind != "text" else None),
                ("data-hidden", hidden),
                (
                    "align",
                    column.get("textAlignment")
                    if column.get("textAlignment") not in (None, "left")
                    else None,
                ),
                ("valign", column.get("verticalAlignment")),
                ("width", _number(width) if width is not None else None),
                ("data-multiple", bool(column.get("multiple"))),
                ("data-max", _number(column["max"]) if "max" in column else None),
                ("data-card-target", view.get("targetDefinition") == cid),
                ("data-card-cover", view.get("coverDefinition") == cid),
                ("data-card-cover-dark", view.get("coverDefinitionDark") == cid),
            ]
        )
        select = ""
        if kind == "select":
            options = "".join(
                "<option"
                + attrs_text(
                    [
                        ("value", o.get("value", "")),
                        ("label", o.get("label", "")),
                        ("color", o.get("color", "")),
                    ]
                )
                + "></option>"
                for o in column.get("options", [])
            )
            select = f"<select>{options}</select>"
        return f"<th{attrs}>{std_html.escape(column.get('title', ''), quote=False)}{select}</th>"

    def _td(self, column: Node, value: Any, fragments: dict[str, list[Node]]) -> str:  # noqa: PLR0911
        kind, paths = column["type"], self.paths
        if value is None:
            return ""
        if kind == "text":
            return self.cell_blocks(fragments.get(value, []))
        if kind in ("number", "rating"):
            return _number(value)
        if kind == "checkbox":
            return "true" if value else "false"
        if kind == "select":
            labels = {o.get("value"): o.get("label", "") for o in column.get("options", [])}
            return "".join(
                f'<span data-option="{attr(v)}">{std_html.escape(labels.get(v, ""), quote=False)}</span>'
                for v in value
            )
        if kind == "users":
            return "".join(
                f'<span data-user="{attr(v)}">{std_html.escape(v, quote=False)}</span>' for v in value
            )
        if kind == "files":
            return "".join(_anchor(paths.file(v)) for v in value)
        if kind == "image" and isinstance(value, dict) and "ref" in value:
            return (
                "<img"
                + attrs_text(
                    [
                        ("src", paths.url(value["ref"])),
                        ("alt", value.get("alt")),
                        ("data-object-fit", value.get("objectFit")),
                    ]
                )
                + ">"
            )
        return _anchor(paths.url(value)) if isinstance(value, dict) else ""


def _anchor(url: str) -> str:
    name = posixpath.basename(url.rstrip("/")) or url
    return f'<a href="{attr(url)}">{std_html.escape(name, quote=False)}</a>'
