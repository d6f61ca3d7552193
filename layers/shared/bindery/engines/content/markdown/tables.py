"""Tables: GFM tables and GitBook's HTML `<table>` to the spec's table block.

A table block keeps columns (`definition`, by id), rows (`records`, ordered by `orderIndex`) and, for
text cells, one fragment per cell holding its blocks. Markdown has no ids, so the parser numbers them:
columns `c1`, `c2`… in their order in the header, rows `r1`, `r2`… with `orderIndex` from
`bindery.engines.content.positions`, and a text cell's fragment is named after its row and column (`r1c2`).

HTML attributes GitBook writes: on `<table>` `data-view="cards"`, `data-card-size`, `data-full-width`,
`data-header-hidden`, `data-column-title-hidden`; on `<th>` `data-type`, `data-hidden`, `align`,
`valign`, `width`, `data-multiple`, `data-max`, `data-card-target`, `data-card-cover`,
`data-card-cover-dark`, and a `<select>` of `<option value label color>` for select columns; in cells
`<span data-option="…">` (select), `<a href>` (files, content-ref, image columns).
"""

from __future__ import annotations

import html as std_html
import re
from typing import TYPE_CHECKING, Any

from bindery.engines.content import positions
from bindery.engines.content.markdown import conform, html, model
from bindery.engines.content.markdown.inlines import convert_inline
from bindery.engines.content.markdown.model import Node

if TYPE_CHECKING:
    from bindery.engines.content.markdown.html import Element
    from bindery.engines.content.markdown.token_tree import Converter, TNode

COLUMN_TYPES = frozenset(
    {"text", "number", "checkbox", "files", "users", "rating", "select", "content-ref", "image"}
)
_ALIGN = re.compile(r"text-align:\s*(left|center|right)")


def ids(count: int, prefix: str) -> list[str]:
    return [f"{prefix}{n}" for n in range(1, count + 1)]


def order_indexes(count: int) -> list[str]:
    out: list[str] = []
    for _ in range(count):
        out.append(positions.between(out[-1], None) if out else positions.first())
    return out


def number(text: str) -> int | float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() and re.fullmatch(r"-?\d+", text.strip()) else value


def _table(
    definition: dict[str, Node],
    view: dict[str, Any],
    rows: list[dict[str, Any]],
    fragments: list[Node],
    data: dict[str, Any],
) -> Node:
    records = {
        rid: {"orderIndex": order, "values": values}
        for rid, order, values in zip(ids(len(rows), "r"), order_indexes(len(rows)), rows, strict=True)
    }
    return model.block(
        "table",
        data={"view": view, "records": records, "definition": definition, **data},
        fragments=fragments,
    )


def _text_value(blocks: list[Node], name: str, fragments: list[Node]) -> str | None:
    if not blocks or (
        len(blocks) == 1
        and blocks[0]["type"] == "paragraph"
        and not blocks[0]["data"]
        and model.is_empty_inlines(blocks[0]["nodes"])
    ):
        return None
    fragments.append(model.fragment(name, blocks))
    return name


def from_gfm(node: TNode, conv: Converter) -> Node:
    rows = [tr for section in node.children for tr in section.children if tr.token.type == "tr_open"]
    header = rows[0].children if rows else []
    columns = ids(len(header), "c")
    definition: dict[str, Node] = {}
    for cid, th in zip(columns, header, strict=True):
        align = _ALIGN.search(str(th.token.attrGet("style") or ""))
        inline = th.children[0].token.children or [] if th.children else []
        title = model.plain_text(convert_inline(inline, conv.ctx)[0]).strip()
        definition[cid] = {
            "id": cid,
            "title": title,
            "type": "text",
            "textAlignment": align.group(1) if align else "left",
        }
    values: list[dict[str, Any]] = []
    fragments: list[Node] = []
    for rid, tr in zip(ids(len(rows) - 1, "r"), rows[1:], strict=True):
        row: dict[str, Any] = {}
        for cid, td in zip(columns, tr.children, strict=False):
            cell = td.children[0].token if td.children else None
            blocks = _gfm_cell(cell.content if cell else "", cell.children or [] if cell else [], conv)
            name = _text_value(blocks, rid + cid, fragments)
            if name is not None:
                row[cid] = name
        values.append(row)
    return _table(
        definition, {"type": "grid", "columns": columns, "hideHeader": False}, values, fragments, {}
    )


def _gfm_cell(raw: str, children: list[Any], conv: Converter) -> list[Node]:
    if re.match(r"\s*<(p|ul|ol|h[1-6])[\s>]", raw):  # GitBook writes several blocks as HTML in a cell
        root = html.parse_tree(raw)
        return conform.keep_allowed("table-cell", conv.html_cell(root, raw), conv.ctx.warn)
    return [model.block("paragraph", convert_inline(children, conv.ctx)[0])]


def from_html(table: Element, source: str, conv: Converter) -> Node:
    thead, tbody = table.find("thead"), table.find("tbody")
    head_row = thead.find("tr") if thead else None
    ths = [c for c in head_row.children if c.name == "th"] if head_row else []
    # Ids in the order the columns are written back: visible ones first, then hidden ones.
    written = sorted(range(len(ths)), key=lambda i: ("data-hidden" in ths[i].attrs, i))
    numbered = dict(zip(written, ids(len(ths), "c"), strict=True))
    columns = [numbered[i] for i in range(len(ths))]
    definition = {cid: _column(cid, th) for cid, th in zip(columns, ths, strict=True)}
    body = tbody or table
    trs = [c for c in body.children if c.name == "tr"]
    rows: list[dict[str, Any]] = []
    fragments: list[Node] = []
    for rid, tr in zip(ids(len(trs), "r"), trs, strict=True):
        row: dict[str, Any] = {}
        tds = [c for c in tr.children if c.name in ("td", "th")]
        # Cells in written column order (c1, c2…), so that fragments come in the order written back.
        for cid, td in sorted(zip(columns, tds, strict=False), key=lambda pair: int(pair[0][1:])):
            value = _cell(definition[cid], td, source, conv, name=rid + cid, fragments=fragments)
            if value is not None:
                row[cid] = value
        rows.append(row)
    visible = [cid for cid, th in zip(columns, ths, strict=True) if "data-hidden" not in th.attrs]
    attrs = table.attrs
    view: dict[str, Any]
    if attrs.get("data-view") == "cards":
        view = {
            "type": "cards",
            "columns": visible,
            "cardSize": "large" if attrs.get("data-card-size") == "large" else "medium",
        }
        for attr, key in (
            ("data-card-target", "targetDefinition"),
            ("data-card-cover", "coverDefinition"),
            ("data-card-cover-dark", "coverDefinitionDark"),
        ):
            found = next((cid for cid, th in zip(columns, ths, strict=True) if attr in th.attrs), None)
            if found:
                view[key] = found
        if "data-column-title-hidden" in attrs:
            view["hideColumnTitle"] = True
    else:
        view = {"type": "grid", "columns": visible, "hideHeader": "data-header-hidden" in attrs}
        widths = {
            cid: number(th.attrs["width"] or "")
            for cid, th in zip(columns, ths, strict=True)
            if th.attrs.get("width") and number(th.attrs["width"] or "") is not None
        }
        if widths:
            view["columnWidths"] = widths
        if "data-use-new-sizing" in attrs:
            view["useNewSizing"] = attrs["data-use-new-sizing"] != "false"
    data = {"fullWidth": attrs["data-full-width"] != "false"} if "data-full-width" in attrs else {}
    return _table(definition, view, rows, fragments, data)


def _column(cid: str, th: Element) -> Node:
    attrs = th.attrs
    select = th.find("select")
    kind = attrs.get("data-type") or ("select" if select is not None else "text")
    kind = kind if kind in COLUMN_TYPES else "text"
    column: Node = {"id": cid, "title": std_html.unescape("".join(th.text)).strip(), "type": kind}
    if kind == "text":
        style = _ALIGN.search(attrs.get("style") or "")  # older exports: style="text-align:center"
        align = attrs.get("align") or (style.group(1) if style else None)
        column["textAlignment"] = align if align in ("left", "center", "right") else "left"
        if attrs.get("valign") in ("top", "middle", "bottom"):
            column["verticalAlignment"] = attrs["valign"]
    if kind in ("select", "users"):
        column["multiple"] = "data-multiple" in attrs
    if kind == "rating":
        column["max"] = number(attrs.get("data-max") or "") or 5
    if kind == "select":
        options = [o for o in select.children if o.name == "option"] if select is not None else []
        column["options"] = [
            {"value": o.attr("value") or "", "label": o.attr("label") or "", "color": o.attr("color") or ""}
            for o in options
        ]
    return column


def _cell(  # noqa: PLR0911 - one return per column type
    column: Node, td: Element, source: str, conv: Converter, *, name: str, fragments: list[Node]
) -> Any:
    kind, refs = column["type"], conv.ctx.refs
    text = std_html.unescape(re.sub(r"<[^>]*>", "", html.inner(source, td))).strip()
    links = [a for a in td.children if a.name == "a" and a.attr("href") is not None]
    if kind == "text":
        blocks = conform.keep_allowed("table-cell", conv.html_cell(td, source), conv.ctx.warn)
        return _text_value(blocks, name, fragments)
    if kind in ("number", "rating"):
        return number(text) if text else None
    if kind == "checkbox":
        return {"true": True, "false": False}.get(text)
    if kind == "select":
        chosen = [s.attr("data-option") or "" for s in td.children if "data-option" in s.attrs]
        return chosen or None
    if kind == "users":
        users = [s.attr("data-user") or "" for s in td.children if "data-user" in s.attrs]
        return users or None
    if kind == "files":
        return [refs.file_id(a.attr("href") or "") for a in links] or None
    if kind == "content-ref":
        return refs.link(links[0].attr("href") or "") if links else None
    img = td.find("img")
    if img is not None:
        record: dict[str, Any] = {"ref": refs.file(img.attr("src") or "")}
        if img.attr("alt"):
            record["alt"] = img.attr("alt")
        if img.attr("data-object-fit") in ("contain", "fill", "cover"):
            record["objectFit"] = img.attr("data-object-fit")
        return record
    return refs.file(links[0].attr("href") or "") if links else None


def column_order(data: dict[str, Any]) -> list[str]:
    """Columns in the order they are written: visible ones in view order, then hidden ones."""
    definition = data["definition"]
    visible = [cid for cid in data["view"].get("columns", []) if cid in definition]
    return visible + [cid for cid in definition if cid not in visible]


def row_order(data: dict[str, Any]) -> list[str]:
    return sorted(data["records"], key=lambda rid: (data["records"][rid].get("orderIndex", ""), rid))


def renumber(block: Node) -> Node:
    """The table with the ids the parser would give it (columns, rows, fragments, order indexes)."""
    data = block["data"]
    columns = column_order(data)
    new_col = dict(zip(columns, ids(len(columns), "c"), strict=True))
    rows = row_order(data)
    fragments = {f.get("fragment"): f for f in block.get("fragments", [])}
    out_fragments: list[Node] = []
    out_rows: list[dict[str, Any]] = []
    for rid, old in zip(ids(len(rows), "r"), rows, strict=True):
        values: dict[str, Any] = {}
        old_values = data["records"][old].get("values", {})
        for old_cid in columns:
            if old_cid not in old_values:
                continue
            value = old_values[old_cid]
            cid = new_col[old_cid]
            if data["definition"][old_cid]["type"] == "text":
                fragment = fragments.get(value)
                name = _text_value(fragment["nodes"], rid + cid, out_fragments) if fragment else None
                if name is not None:
                    values[cid] = name
            elif value is not None:
                values[cid] = value
        out_rows.append(values)
    definition = {new_col[cid]: {**data["definition"][cid], "id": new_col[cid]} for cid in columns}
    view = dict(data["view"])
    view["columns"] = [new_col[cid] for cid in view.get("columns", []) if cid in new_col]
    if "columnWidths" in view:
        view["columnWidths"] = {new_col[c]: w for c, w in view["columnWidths"].items() if c in new_col}
    for key in ("targetDefinition", "coverDefinition", "coverDefinitionDark"):
        if key in view:
            view[key] = new_col.get(view[key], view[key])
    extra = {k: v for k, v in data.items() if k not in ("view", "records", "definition")}
    table = _table(definition, view, out_rows, out_fragments, extra)
    return {**table, **({"key": block["key"]} if "key" in block else {})}
