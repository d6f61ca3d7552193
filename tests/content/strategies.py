"""Hypothesis strategies for GitBook documents in canonical form, covering every block and inline type.

Nesting follows `bindery.engines.content.markdown.rules.ALLOWED`. The documents use the references that
`support.py` maps both ways (pages `<id>.md`, files in .gitbook/assets…), so that a round trip through
Markdown must give back exactly the same document.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from bindery.engines.content.markdown import model
from bindery.engines.content.markdown.block_keys import assign_keys
from bindery.engines.content.markdown.model import Node
from bindery.engines.content.markdown.rules import ALLOWED
from bindery.engines.content.markdown.tables import ids, order_indexes

Draw = Any

# Text: Markdown's special characters, spaces and tabs, line breaks, a few non-ASCII characters.
TEXT_ALPHABET = st.sampled_from([*"abcXYZ019 \t*_`~[]()<>#!|\\$:&-+=.{}%\"'@/^", "\n", "é", "日", "—", "😀"])
WORD = st.text(st.sampled_from(list("abcdefghxyz0123")), min_size=1, max_size=8)
IDENT = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
ATTR_TEXT = st.text(st.sampled_from(list("ab Z9.-/\"\\'%}{=")), max_size=12)
COLOR = st.sampled_from(sorted(model.COLORS))
EMOJI = st.sampled_from(["1f600", "1f3e0", "2764-fe0f", "1f44d", "1f680", "2705"])
SIMPLE_MARKS = ["bold", "italic", "strikethrough", "code", "keyboard", "superscript", "subscript"]


def text_value(min_size: int = 1) -> st.SearchStrategy[str]:
    return st.text(TEXT_ALPHABET, min_size=min_size, max_size=20)


URL = st.builds(
    lambda path: f"https://example.com/{path}".rstrip(),
    st.text(st.sampled_from(list("ab/_-?=&.() ")), max_size=10),
)
REF = st.one_of(
    URL.map(lambda url: {"kind": "url", "url": url}),
    IDENT.map(lambda page: {"kind": "page", "page": page}),
    st.tuples(IDENT, IDENT).map(lambda pa: {"kind": "anchor", "anchor": pa[1], "page": pa[0]}),
    IDENT.map(lambda anchor: {"kind": "anchor", "anchor": anchor}),
    IDENT.map(lambda file: {"kind": "file", "file": file + ".png"}),
)
FILE_REF = IDENT.map(lambda file: {"kind": "file", "file": file + ".pdf"})
IMAGE_REF = st.one_of(FILE_REF, URL.map(lambda url: {"kind": "url", "url": url}))
LENGTH = st.one_of(st.integers(1, 900), st.builds(lambda v: {"unit": "%", "value": v}, st.integers(1, 100)))


@st.composite
def marks(draw: Draw) -> list[Node]:
    specs: set[tuple[str, ...]] = {
        (name,) for name in draw(st.sets(st.sampled_from(SIMPLE_MARKS), max_size=3))
    }
    if draw(st.integers(0, 5)) == 0:
        specs.add(("color", draw(COLOR), draw(COLOR)))
    return model.sorted_marks(specs)


def leaf_text(draw: Draw, **kwargs: Any) -> Node:
    return model.text(draw(text_value(**kwargs)), draw(marks()))


@st.composite
def inline_image(draw: Draw) -> Node:
    data: dict[str, Any] = {"ref": draw(IMAGE_REF)}
    if draw(st.booleans()):
        data["refDark"] = draw(IMAGE_REF)
    for key, value in (
        ("alt", ATTR_TEXT),
        ("caption", ATTR_TEXT),
        ("size", st.sampled_from(["original", "line"])),
    ):
        if draw(st.booleans()):
            data[key] = draw(value)
    data = {k: v for k, v in data.items() if v != ""}
    return model.inline("inline-image", data)


def blocks_for(container: str, depth: int) -> st.SearchStrategy[list[Node]]:
    return st.lists(block(container, depth), min_size=1, max_size=3)


@st.composite
def annotation(draw: Draw, depth: int) -> Node:
    body = draw(st.lists(block("annotation-body", depth + 2), min_size=1, max_size=2))
    words = [model.text(draw(text_value()), draw(marks()))]
    return model.inline(
        "annotation", {}, words, fragments=[model.fragment("annotation-body", body, "annotation-body")]
    )


@st.composite
def inline_node(draw: Draw, depth: int, *, rich: bool = True) -> Node:  # noqa: PLR0911
    kind = draw(
        st.sampled_from(
            ["link", "emoji", "icon", "expression", "math", "image", "mention", "button"]
            + (["annotation"] if rich and depth < 2 else [])
        )
    )
    if kind == "link":
        kinds = draw(st.lists(st.sampled_from(["text", "text", "image"]), min_size=1, max_size=3))
        children = [leaf_text(draw) if k == "text" else draw(inline_image()) for k in kinds]
        return model.inline("link", {"ref": draw(REF)}, model.normalize_inlines(children))
    if kind == "emoji":
        return model.inline("emoji", {"code": draw(EMOJI)})
    if kind == "icon":
        data = {"icon": draw(IDENT)}
        if draw(st.booleans()):
            data["color"] = draw(COLOR)
        return model.inline("icon", data)
    if kind == "expression":
        return model.inline(
            "expression",
            {"expression": draw(st.text(st.sampled_from(list("ab._ *=<>'\"$")), min_size=1, max_size=15))},
        )
    if kind == "math":
        return model.inline(
            "inline-math",
            {"formula": draw(st.text(st.sampled_from(list("x^2+{}\\ _=")), min_size=1, max_size=12))},
        )
    if kind == "image":
        return draw(inline_image())
    if kind == "mention":
        return model.inline("mention", {"ref": draw(REF)})
    if kind == "button":
        data = {
            "label": draw(st.text(st.sampled_from(list("ab Z<>&*_")), max_size=10)),
            "kind": draw(st.sampled_from(["primary", "secondary"])),
            "ref": draw(REF),
        }
        if draw(st.booleans()):
            data["icon"] = draw(IDENT)
        return model.inline("button", data)
    return draw(annotation(depth))


@st.composite
def inlines(draw: Draw, depth: int = 0, *, rich: bool = True) -> list[Node]:
    items = draw(
        st.lists(st.one_of(st.just("text"), st.just("text"), st.just("inline")), min_size=1, max_size=5)
    )
    nodes = [leaf_text(draw) if item == "text" else draw(inline_node(depth, rich=rich)) for item in items]
    return model.normalize_inlines(nodes)


def paragraph(depth: int, *, align: bool = True, rich: bool = True) -> st.SearchStrategy[Node]:
    data = (
        st.just({})
        if not align
        else st.one_of(
            st.just({}),
            st.just({}),
            st.builds(lambda a: {"align": a}, st.sampled_from(["start", "center", "end"])),
        )
    )
    return st.builds(lambda nodes, d: model.block("paragraph", nodes, d), inlines(depth, rich=rich), data)


@st.composite
def heading(draw: Draw, depth: int) -> Node:
    data: dict[str, Any] = {}
    if draw(st.booleans()):
        data["id"] = draw(st.from_regex(r"[a-z0-9][-a-z0-9._]{0,10}", fullmatch=True))
    if draw(st.integers(0, 3)) == 0:
        data["align"] = draw(st.sampled_from(["start", "center", "end"]))
    kind = draw(st.sampled_from(["heading-1", "heading-2", "heading-3"]))
    return model.block(kind, draw(inlines(depth)), data)


@st.composite
def list_block(draw: Draw, depth: int, item_container: str = "list-item") -> Node:
    """A list; `item_container` is the rule its items' blocks follow: in a table cell, GitBook's HTML
    table holds text blocks only, so a list there holds them too."""
    kind = draw(st.sampled_from(["list-ordered", "list-unordered", "list-tasks"]))
    items = []
    for _ in range(draw(st.integers(1, 3))):
        # mostly a paragraph first, as typed; any other block may open an item too (GitBook writes
        # `* ```…`), except a task's, whose `[ ]` belongs to a paragraph
        opened = kind != "list-tasks" and draw(st.integers(0, 2)) == 0
        first = draw(block(item_container, depth + 1)) if opened else draw(paragraph(depth + 1, align=False))
        rest = draw(st.lists(block(item_container, depth + 1), max_size=2)) if depth < 2 else []
        data = {"checked": draw(st.booleans())} if kind == "list-tasks" else {}
        items.append(model.block("list-item", [first, *rest], data))
    data = {"start": draw(st.integers(2, 12))} if kind == "list-ordered" and draw(st.booleans()) else {}
    return model.block(kind, items, data)


@st.composite
def code(draw: Draw, depth: int) -> Node:
    rich = draw(st.integers(0, 3)) == 0
    lines = []
    for _ in range(draw(st.integers(0, 4))):
        nodes = [model.text(draw(st.text(st.sampled_from(list("ab <>&`~{}%$ \t*")), max_size=12)))]
        if rich and draw(st.booleans()):
            nodes.append(model.inline("expression", {"expression": draw(WORD)}))
        if rich and depth < 2 and draw(st.booleans()):
            body = [draw(paragraph(depth + 2, align=False, rich=False))]
            nodes.append(
                model.inline(
                    "annotation",
                    {},
                    [model.text(draw(WORD))],
                    fragments=[model.fragment("annotation-body", body, "annotation-body")],
                )
            )
        line_data = {"highlighted": True} if rich and draw(st.booleans()) else {}
        lines.append(model.block("code-line", model.normalize_inlines(nodes), line_data))
    data: dict[str, Any] = {}
    if draw(st.booleans()):
        data["syntax"] = draw(IDENT)
    if draw(st.booleans()):
        data["title"] = draw(ATTR_TEXT)
    if draw(st.booleans()):
        data["overflow"] = draw(st.sampled_from(["wrap", "scroll"]))
    for key in ("lineNumbers", "fullWidth", "expandable"):
        if draw(st.integers(0, 3)) == 0:
            data[key] = draw(st.booleans())
    if draw(st.integers(0, 4)) == 0:
        data["collapsedLineCount"] = draw(st.integers(1, 30))
    return model.block("code", lines, data)


@st.composite
def image(draw: Draw) -> Node:
    data: dict[str, Any] = {"ref": draw(IMAGE_REF)}
    if draw(st.booleans()):
        data["refDark"] = draw(IMAGE_REF)
    for key, value in (("width", LENGTH), ("height", LENGTH), ("alt", ATTR_TEXT.filter(bool))):
        if draw(st.booleans()):
            data[key] = draw(value)
    caption = draw(st.lists(paragraph(3, rich=False), max_size=2))
    caption = [p for p in caption if not model.is_empty_inlines(p["nodes"])]
    return model.block("image", data=data, fragments=[model.fragment("caption", caption)] if caption else [])


@st.composite
def images(draw: Draw) -> Node:
    data: dict[str, Any] = {}
    if draw(st.booleans()):
        data["align"] = draw(st.sampled_from(["center", "left", "right"]))
    for key in ("fullWidth", "withFrame"):
        if draw(st.integers(0, 3)) == 0:
            data[key] = draw(st.booleans())
    return model.block("images", draw(st.lists(image(), min_size=1, max_size=3)), data)


@st.composite
def table(draw: Draw) -> Node:  # noqa: PLR0912 - one draw per table option
    count = draw(st.integers(1, 4))
    columns = ids(count, "c")
    simple = draw(st.booleans())
    definition: dict[str, Node] = {}
    for cid in columns:
        kind = (
            "text"
            if simple
            else draw(
                st.sampled_from(
                    [
                        "text",
                        "text",
                        "number",
                        "checkbox",
                        "select",
                        "users",
                        "rating",
                        "files",
                        "content-ref",
                        "image",
                    ]
                )
            )
        )
        column: dict[str, Any] = {
            "id": cid,
            "title": draw(st.text(st.sampled_from(list("ab Z<&|*")), max_size=8)).strip(),
            "type": kind,
        }
        if kind == "text":
            column["textAlignment"] = draw(st.sampled_from(["left", "center", "right"]))
            if not simple and draw(st.booleans()):
                column["verticalAlignment"] = draw(st.sampled_from(["top", "middle", "bottom"]))
        if kind in ("select", "users"):
            column["multiple"] = draw(st.booleans())
        if kind == "rating":
            column["max"] = draw(st.integers(1, 10))
        if kind == "select":
            column["options"] = [
                {"value": f"o{n}", "label": draw(WORD), "color": draw(st.sampled_from(["blue", "red"]))}
                for n in range(draw(st.integers(1, 3)))
            ]
        definition[cid] = column
    hidden = set() if simple else set(draw(st.lists(st.sampled_from(columns), max_size=count - 1)))
    visible = [c for c in columns if c not in hidden] + [c for c in columns if c in hidden]
    view: dict[str, Any]
    if not simple and draw(st.booleans()):
        view = {
            "type": "cards",
            "columns": [c for c in visible if c not in hidden],
            "cardSize": draw(st.sampled_from(["medium", "large"])),
        }
        for key in ("targetDefinition", "coverDefinition", "coverDefinitionDark"):
            if draw(st.booleans()):
                view[key] = draw(st.sampled_from(columns))
        if draw(st.booleans()):
            view["hideColumnTitle"] = True
    else:
        view = {
            "type": "grid",
            "columns": [c for c in visible if c not in hidden],
            "hideHeader": False if simple else draw(st.booleans()),
        }
        widths = {c: draw(st.integers(20, 400)) for c in columns if not simple and draw(st.booleans())}
        if widths:
            view["columnWidths"] = widths
        if not simple and draw(st.booleans()):
            view["useNewSizing"] = draw(st.booleans())
    order = list(visible)
    remap = dict(zip(order, columns, strict=True))  # canonical ids follow the written column order
    rows, fragments = [], []
    for rid in ids(draw(st.integers(0, 3)), "r"):
        values: dict[str, Any] = {}
        for cid in order:
            value = draw(_cell_value(definition[cid], rid + remap[cid], fragments))
            if value is not None:
                values[remap[cid]] = value
        rows.append(values)
    definition = {remap[c]: {**definition[c], "id": remap[c]} for c in order}
    view["columns"] = [remap[c] for c in view["columns"]]
    for key in ("targetDefinition", "coverDefinition", "coverDefinitionDark"):
        if key in view:
            view[key] = remap[view[key]]
    if "columnWidths" in view:
        view["columnWidths"] = {remap[c]: w for c, w in view["columnWidths"].items()}
    records = {
        rid: {"orderIndex": oi, "values": v}
        for rid, oi, v in zip(ids(len(rows), "r"), order_indexes(len(rows)), rows, strict=True)
    }
    data: dict[str, Any] = {"view": view, "records": records, "definition": definition}
    if not simple and draw(st.booleans()):
        data["fullWidth"] = draw(st.booleans())
    return model.block("table", data=data, fragments=fragments)


@st.composite
def _cell_value(draw: Draw, column: Node, name: str, fragments: list[Node]) -> Any:  # noqa: PLR0911, PLR0912
    if draw(st.integers(0, 4)) == 0:
        return None
    kind = column["type"]
    if kind == "text":
        blocks = [draw(paragraph(3, align=False, rich=False))]
        if draw(st.integers(0, 3)) == 0:
            blocks.append(draw(st.one_of(paragraph(3, rich=False), list_block(3, "table-cell"), heading(3))))
        if len(blocks) == 1 and model.is_empty_inlines(blocks[0]["nodes"]):
            return None
        fragments.append(model.fragment(name, blocks))
        return name
    if kind == "number":
        return draw(st.one_of(st.integers(-50, 5000), st.sampled_from([1.5, -0.25, 3.125])))
    if kind == "rating":
        return draw(st.integers(1, column["max"]))
    if kind == "checkbox":
        return draw(st.booleans())
    if kind == "select":
        return draw(
            st.lists(st.sampled_from([o["value"] for o in column["options"]]), min_size=1, max_size=2)
        )
    if kind == "users":
        return draw(st.lists(IDENT, min_size=1, max_size=2))
    if kind == "files":
        return draw(st.lists(IDENT.map(lambda f: f + ".pdf"), min_size=1, max_size=2))
    if kind == "content-ref":  # URL and file references are ambiguous in the spec's record schema
        return draw(
            st.one_of(
                IDENT.map(lambda p: {"kind": "page", "page": p}),
                st.tuples(IDENT, IDENT).map(lambda pa: {"kind": "anchor", "anchor": pa[1], "page": pa[0]}),
            )
        )
    record: dict[str, Any] = {"ref": draw(IMAGE_REF)}
    if draw(st.booleans()):
        record["alt"] = draw(WORD)
    if draw(st.booleans()):
        record["objectFit"] = draw(st.sampled_from(["contain", "fill", "cover"]))
    return record


@st.composite
def void_block(draw: Draw, kind: str) -> Node:  # noqa: PLR0911, PLR0912
    if kind == "divider":
        return model.block("divider")
    if kind == "math":
        return model.block(
            "math",
            data={
                "formula": draw(
                    st.text(st.sampled_from(list("x^2+{}\\ _=\n")), min_size=1, max_size=20)
                    .map(str.strip)
                    .filter(bool)
                )
            },
        )
    if kind == "file":
        return model.block("file", data={"ref": draw(FILE_REF)})
    if kind == "drawing":
        return model.block("drawing", data={"ref": draw(FILE_REF)})
    if kind == "embed":
        data = {"url": draw(URL)}
        if draw(st.booleans()):
            data["fullWidth"] = draw(st.booleans())
        return model.block("embed", data=data)
    if kind == "content-ref":
        return model.block("content-ref", data={"ref": draw(REF)})
    if kind == "reusable-content":
        return model.block(
            "reusable-content", data={"ref": {"kind": "reusable-content", "reusableContent": draw(IDENT)}}
        )
    if kind == "integration":
        props = draw(
            st.dictionaries(
                IDENT,
                st.one_of(ATTR_TEXT, st.integers(0, 9), st.booleans(), st.lists(WORD, max_size=2)),
                max_size=3,
            )
        )
        data = {"integration": draw(IDENT), "block": draw(IDENT), "props": props}
        if draw(st.booleans()):
            data["url"] = draw(URL)
        return model.block("integration", data=data)
    if kind == "swagger":
        data = {
            "ref": draw(IMAGE_REF),
            "path": "/" + draw(WORD),
            "method": draw(st.sampled_from(["get", "post"])),
        }
        if draw(st.booleans()):
            data["expanded"] = draw(st.booleans())
        return model.block("swagger", data=data)
    spec = {"kind": "openapi", "spec": draw(IDENT)}
    if kind == "openapi-operation":
        return model.block(kind, data={"ref": spec, "path": "/" + draw(WORD), "method": "get"})
    if kind == "openapi-webhook":
        return model.block(kind, data={"ref": spec, "name": draw(WORD), "method": "post"})
    data = {"ref": spec, "schemas": draw(st.lists(WORD, min_size=1, max_size=3))}
    if draw(st.booleans()):
        data["grouped"] = draw(st.booleans())
    return model.block(kind, data=data)


_VOID = (
    "divider",
    "math",
    "file",
    "drawing",
    "embed",
    "content-ref",
    "reusable-content",
    "integration",
    "swagger",
    "openapi-operation",
    "openapi-schemas",
    "openapi-webhook",
)


@st.composite
def block(draw: Draw, container: str, depth: int) -> Node:  # noqa: PLR0911, PLR0912
    allowed = sorted(ALLOWED[container])
    if depth >= 3:  # deep down: leaves only
        allowed = [
            k for k in allowed if k in ("paragraph", "heading-1", "heading-2", "heading-3") or k in _VOID
        ]
    kind = draw(st.sampled_from(allowed))
    if kind == "paragraph":
        return draw(paragraph(depth))
    if kind.startswith("heading"):
        return draw(heading(depth))
    if kind.startswith("list"):
        return draw(list_block(depth))
    if kind in _VOID:
        return draw(void_block(kind))
    if kind == "code":
        return draw(code(depth))
    if kind == "images":
        return draw(images())
    if kind == "table":
        return draw(table())
    if kind in ("blockquote", "hint", "if"):
        data = {
            "blockquote": {},
            "hint": {"style": draw(st.sampled_from(["info", "warning", "danger", "success"]))},
            "if": {
                "expression": draw(
                    st.text(st.sampled_from(list("ab.=!&| '\"")), min_size=1, max_size=12)
                    .map(str.strip)
                    .filter(bool)
                )
            },
        }[kind]
        return model.block(kind, draw(blocks_for(kind, depth + 1)), data)
    if kind == "expandable":
        title = model.paragraph(draw(inlines(depth + 1, rich=False)))
        body = draw(blocks_for("expandable-body", depth + 1))
        return model.block(
            "expandable",
            fragments=[
                model.fragment("expandable-title", [title], "expandable-title"),
                model.fragment("expandable-body", body, "expandable-body"),
            ],
        )
    item_type = {"tabs": "tabs-item", "stepper": "stepper-step", "columns": "column"}[kind]
    items = []
    for _ in range(draw(st.integers(1, 3))):
        item_data: dict[str, Any] = {}
        if item_type == "tabs-item":
            item_data["title"] = draw(ATTR_TEXT)
        elif item_type == "stepper-step" and draw(st.booleans()):
            item_data["icon"] = draw(IDENT)
        elif item_type == "column":
            if draw(st.booleans()):
                item_data["width"] = draw(LENGTH)
            if draw(st.booleans()):
                item_data["verticalAlignment"] = draw(st.sampled_from(["top", "middle", "bottom"]))
        items.append(model.block(item_type, draw(blocks_for(item_type, depth + 1)), item_data))
    data = {"fullWidth": draw(st.booleans())} if kind != "stepper" and draw(st.booleans()) else {}
    return model.block(kind, items, data)


@st.composite
def documents(draw: Draw) -> Node:
    nodes = draw(st.lists(block("document", 0), min_size=1, max_size=4))
    return assign_keys({"object": "document", "data": {}, "nodes": nodes})
