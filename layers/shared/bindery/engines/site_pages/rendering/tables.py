"""The `table` block: its `definition` (columns and their types), `records` (rows, ordered by
`orderIndex`) and `view` (a grid, or cards with a cover and a target), values rendered by column type;
text cells are fragments of the block (`r1c2`), rendered as blocks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from bindery.engines.site_pages.rendering.context import attributes
from bindery.engines.site_pages.rendering.inlines import COLORS, file_label, ref_title
from bindery.engines.site_pages.rendering.layout import VERTICAL_ALIGNMENTS
from bindery.engines.site_pages.rendering.media import ALIGNMENTS, image_tags
from bindery.engines.site_pages.rendering.nodes import Node, data_of, fragment, has_fragment, string, text_of

if TYPE_CHECKING:
    from bindery.engines.site_pages.rendering.context import RenderContext

MAX_RATING = 10
CARD_SIZES = frozenset({"medium", "large"})
Cell = Callable[["RenderContext", Node, Mapping[str, Any], Any], Markup]


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _text(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    """A text cell: the fragment its value names; a value naming no fragment is shown as text."""
    if isinstance(value, str) and has_fragment(node, value):
        return context.blocks(fragment(node, value))
    return _plain(context, node, definition, value)


def _plain(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return escape(str(int(value)))  # 3.0 as 3, as the spec's JSON numbers read
    if _number(value) or isinstance(value, str):
        return escape(str(value))
    return Markup("")


def _checkbox(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    return Markup("<input{}>").format(attributes(type="checkbox", disabled=True, checked=value is True))


def _select(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    options = {str(option.get("value")): option for option in definition.get("options") or []
               if isinstance(option, Mapping)} if isinstance(definition.get("options"), list) else {}
    chosen = value if isinstance(value, list) else [value]
    out = Markup("")
    for item in chosen:
        option = options.get(str(item)) if isinstance(item, str) else None
        if option is not None:
            colour = COLORS.get(str(option.get("color")))
            css = "bd-option" + (f" bd-bg-{colour}" if colour else "")
            out += Markup('<span class="{}">{}</span>').format(css, string(option.get("label")) or str(item))
    return out


def _rating(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    top = definition.get("max")
    top = top if isinstance(top, int) and not isinstance(top, bool) and 0 < top <= MAX_RATING else 5
    if not _number(value):
        return Markup("")
    stars = max(0, min(top, round(value)))
    return Markup('<span class="bd-rating" role="img" aria-label="{} / {}">{}</span>').format(
        stars, top, "\N{BLACK STAR}" * stars + "\N{WHITE STAR}" * (top - stars))


def _files(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    out = Markup("")
    for file_id in value if isinstance(value, list) else []:
        if isinstance(file_id, str):
            url = context.ref_url({"kind": "file", "file": file_id})
            label = escape(file_label(context, None, file_id, url))
            out += Markup("<div>{}</div>").format(context.link(url, label))
    return out


def _content_ref(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    if not isinstance(value, Mapping):
        return Markup("")
    url = context.ref_url(value)
    return context.link(url, escape(ref_title(context, value, url)))


def _image(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    """An image value: `{ref, refDark?, objectFit?}` or a bare reference."""
    record = _mapping(value)
    data = record if isinstance(record.get("ref"), Mapping) else {"ref": record}
    return image_tags(context, data, css="bd-cell-image") if record else Markup("")


CELLS: dict[str, Cell] = {
    "text": _text, "number": _plain, "checkbox": _checkbox, "select": _select, "rating": _rating,
    "files": _files, "content-ref": _content_ref, "image": _image,
}


def _records(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    records = _mapping(data.get("records"))
    ordered = sorted((str(_mapping(record).get("orderIndex", "")), str(record_id))
                     for record_id, record in records.items())
    return [_mapping(_mapping(records[record_id]).get("values")) for _index, record_id in ordered]


def _columns(data: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The view's columns, in its order, with their definitions (columns it omits are hidden)."""
    definitions = _mapping(data.get("definition"))
    view = _mapping(data.get("view"))
    columns = view.get("columns")
    wanted: list[Any] = columns if isinstance(columns, list) else list(definitions)
    return [(column, _mapping(definitions[column])) for column in wanted
            if isinstance(column, str) and column in definitions]


def _cell(context: RenderContext, node: Node, definition: Mapping[str, Any], value: Any) -> Markup:
    if value is None:
        return Markup("")
    return CELLS.get(str(definition.get("type")), _text)(context, node, definition, value)


def _align(definition: Mapping[str, Any]) -> str | None:
    align = definition.get("textAlignment")
    valign = definition.get("verticalAlignment")
    classes = ([f"bd-align-{align}"] if align in ALIGNMENTS else []) + (
        [f"bd-valign-{valign}"] if valign in VERTICAL_ALIGNMENTS else [])
    return " ".join(classes) or None


def _grid(context: RenderContext, node: Node, data: Mapping[str, Any]) -> Markup:
    columns = _columns(data)
    view = _mapping(data.get("view"))
    widths = _mapping(view.get("columnWidths"))
    head = Markup("")
    if view.get("hideHeader") is not True:
        cells = Markup("").join(
            Markup("<th{}>{}</th>").format(attributes(
                css=_align(definition), scope="col",
                width=round(widths[column]) if _number(widths.get(column)) and 0 < widths[column] < 10_000
                else None), string(definition.get("title")) or "")
            for column, definition in columns)
        head = Markup("<thead><tr>{}</tr></thead>").format(cells)
    rows = Markup("").join(
        Markup("<tr>{}</tr>").format(Markup("").join(
            Markup("<td{}>{}</td>").format(attributes(css=_align(definition)),
                                           _cell(context, node, definition, values.get(column)))
            for column, definition in columns))
        for values in _records(data))
    return Markup('<div class="bd-table-scroll"><table class="bd-table">{}<tbody>{}</tbody></table></div>'
                  ).format(head, rows)


def _card(context: RenderContext, node: Node, data: Mapping[str, Any], values: Mapping[str, Any]) -> Markup:
    view = _mapping(data.get("view"))
    definitions = _mapping(data.get("definition"))
    cover = Markup("")
    cover_column = view.get("coverDefinition")
    if isinstance(cover_column, str):
        value = values.get(cover_column)
        if isinstance(value, list) and value and isinstance(value[0], str):
            value = {"ref": {"kind": "file", "file": value[0]}}
        if isinstance(value, Mapping):
            cover = _image(context, node, {}, value)
    body = Markup("").join(_cell(context, node, definition, values.get(column))
                           for column, definition in _columns(data))
    target = view.get("targetDefinition")
    url = context.ref_url(values.get(target)) if isinstance(target, str) and target in definitions else None
    label = " ".join(text_of({"nodes": fragment(node, value)}) for value in values.values()
                     if isinstance(value, str)).strip()
    link = Markup("<a{}></a>").format(attributes(href=url, css="bd-card-target", aria_label=label or url)) \
        if url else Markup("")
    return Markup('<div class="bd-card">{}<div class="bd-card-body">{}</div>{}</div>').format(
        Markup('<div class="bd-card-cover">{}</div>').format(cover) if cover else Markup(""), body, link)


def render_table(context: RenderContext, node: Node) -> Markup:
    data = data_of(node)
    full = " bd-full-width" if data.get("fullWidth") is True else ""
    view = _mapping(data.get("view"))
    if view.get("type") != "cards":
        return Markup('<div class="bd-table-block{}">{}</div>').format(full, _grid(context, node, data))
    size = view.get("cardSize") if view.get("cardSize") in CARD_SIZES else "medium"
    cards = Markup("").join(_card(context, node, data, values) for values in _records(data))
    return Markup('<div class="bd-cards bd-cards-{}{}">{}</div>').format(size, full, cards)
