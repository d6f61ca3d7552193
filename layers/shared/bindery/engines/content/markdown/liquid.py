"""GitBook's `{% … %}` blocks to document blocks.

hint, tabs/tab, stepper/step, columns/column, if, code (around a fence), embed, content-ref (and the
older page-ref), file, include (reusable content), openapi (and the older swagger with a `src`),
openapi-operation, openapi-schemas, openapi-webhook, and `{% @integration/block … %}`. A tag the spec has
no block for (`updates`, `raw`, the old `api-method` family…) keeps its content, without the tag.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bindery.engines.content.markdown import conform, model
from bindery.engines.content.markdown.model import Node

if TYPE_CHECKING:
    from bindery.engines.content.markdown.tags import Tag
    from bindery.engines.content.markdown.token_tree import Converter, TNode

# The spec's hint styles (DocumentBlockHint), and the nearest of them for what GitBook and other tools
# write beyond them; anything else reads as `info`. A style written otherwise is kept (ParsedPage's
# `hint_styles`) so that an export writes it back (render.BlockRenderer).
HINT_STYLES = ("info", "warning", "danger", "success")
NEAREST_HINT_STYLE = {
    "tip": "success", "hint": "success", "check": "success",
    "note": "info", "important": "warning", "caution": "warning", "attention": "warning",
    "error": "danger", "alert": "danger", "bug": "danger",
}


def hint_style(written: str) -> str:
    """The official hint style nearest to the one written."""
    if written in HINT_STYLES:
        return written
    folded = written.strip().lower()
    return folded if folded in HINT_STYLES else NEAREST_HINT_STYLE.get(folded, "info")
# Data attributes of `{% @integration/block %}` that are not props.
INTEGRATION_DATA = {"@url": "url", "@fullWidth": "fullWidth", "@action": "action"}
_LENGTH = re.compile(r"(-?\d+(?:\.\d+)?)([a-z%]*)")


def flag(value: Any) -> bool:
    return value is True or value == "true"


def length(value: Any) -> Any:
    """A spec `Length`: `50%` reads as {value: 50, unit: "%"}, a bare number as the number."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    match = _LENGTH.fullmatch(str(value).strip())
    if match is None:
        return None
    number = float(match.group(1))
    amount: int | float = int(number) if number.is_integer() and "." not in match.group(1) else number
    return {"unit": match.group(2), "value": amount} if match.group(2) else amount


def format_length(value: Any) -> str:
    if isinstance(value, dict):
        return f"{value['value']}{value['unit']}"
    return str(value)


def _optional(data: dict[str, Any], attrs: dict[str, Any], *names: str) -> dict[str, Any]:
    for name in names:
        if name in attrs:
            data[name] = flag(attrs[name])
    return data


def convert(node: TNode, conv: Converter, container: str) -> list[Node]:  # noqa: PLR0911
    token = node.token
    tag: Tag = token.meta["tag"]
    name, attrs, refs = tag.name, tag.attrs, conv.ctx.refs
    if token.type == "liquid_stray":
        conv.ctx.warn(f"a closing {{% {name} %}} without its opening tag was ignored")
        return []
    if token.type == "liquid_void":
        return _void(tag, conv)
    children = node.children
    if name == "hint":
        return _hint(tag, children, conv)
    if name in ("tabs", "stepper", "columns"):
        return _group(name, tag, children, conv)
    if name == "if":
        expression = tag.body
        blocks = conv.blocks(children, "if")
        return conform.split("if", blocks, lambda run, _i: model.block("if", run, {"expression": expression}))
    if name == "code":
        return _code(tag, conv.blocks(children, container))
    if name == "embed":
        return [_embed(tag)]
    if name in ("content-ref", "page-ref"):
        return [
            model.block("content-ref", data={"ref": refs.link(str(attrs.get("url", attrs.get("page", ""))))})
        ]
    if name == "file":
        return [model.block("file", data={"ref": refs.file_only(str(attrs.get("src", "")))})]
    if name in ("openapi", "swagger") and "src" in attrs:
        data = {
            "ref": refs.file(str(attrs["src"])),
            "path": str(attrs.get("path", "")),
            "method": str(attrs.get("method", "")),
        }
        return [model.block("swagger", data=_optional(data, attrs, "expanded", "fullWidth"))]
    if name in ("openapi-operation", "openapi-schemas", "openapi-webhook"):
        return [_openapi(tag)]
    if name not in ("updates", "update", "raw"):
        conv.ctx.warn(f"{{% {name} %}} has no block in GitBook documents; its content was kept without it")
    return conv.blocks(children, container)


def _hint(tag: Tag, children: list[TNode], conv: Converter) -> list[Node]:
    written = str(tag.attrs.get("style", "info"))
    style = hint_style(written)
    blocks = conv.blocks(children, "hint")
    hints = conform.split("hint", blocks, lambda run, _i: model.block("hint", run, {"style": style}))
    if written != style:
        conv.ctx.restyled.extend((hint, written) for hint in hints if hint.get("type") == "hint")
    return hints


def _void(tag: Tag, conv: Converter) -> list[Node]:
    refs, attrs = conv.ctx.refs, tag.attrs
    if tag.name == "include" and tag.args:
        return [model.block("reusable-content", data={"ref": refs.reusable(tag.args[0])})]
    if tag.name == "page-ref":
        return [model.block("content-ref", data={"ref": refs.link(str(attrs.get("page", "")))})]
    if tag.name == "embed":
        return [_embed(tag)]
    if tag.name.startswith("@") and "/" in tag.name:
        integration, _, block_id = tag.name[1:].partition("/")
        data: dict[str, Any] = {
            "integration": integration,
            "block": block_id,
            "props": {k: v for k, v in attrs.items() if k not in INTEGRATION_DATA},
        }
        for attr, key in INTEGRATION_DATA.items():
            if attr in attrs:
                data[key] = flag(attrs[attr]) if key == "fullWidth" else attrs[attr]
        return [model.block("integration", data=data)]
    conv.ctx.warn(f"{{% {tag.name} %}} was not understood and was left out")
    return []


def _embed(tag: Tag) -> Node:
    return model.block(
        "embed", data=_optional({"url": str(tag.attrs.get("url", ""))}, tag.attrs, "fullWidth")
    )


def _code(tag: Tag, blocks: list[Node]) -> list[Node]:
    attrs = tag.attrs
    for index, block in enumerate(blocks):
        if block["type"] == "code":
            data = dict(block["data"])
            if "title" in attrs:
                data["title"] = str(attrs["title"])
            if attrs.get("overflow") in ("wrap", "scroll"):
                data["overflow"] = attrs["overflow"]
            _optional(data, attrs, "lineNumbers", "fullWidth", "expandable")
            if "collapsedLineCount" in attrs and str(attrs["collapsedLineCount"]).isdigit():
                data["collapsedLineCount"] = int(attrs["collapsedLineCount"])
            blocks[index] = {**block, "data": data}
            break
    return blocks


def _openapi(tag: Tag) -> Node:
    attrs = tag.attrs
    spec = str(attrs.get("spec", tag.args[0] if tag.args else ""))
    data: dict[str, Any] = {"ref": {"kind": "openapi", "spec": spec}}
    if tag.name == "openapi-operation":
        data.update(path=str(attrs.get("path", "")), method=str(attrs.get("method", "")))
    elif tag.name == "openapi-webhook":
        data.update(name=str(attrs.get("name", "")), method=str(attrs.get("method", "")))
    else:
        schemas = str(attrs.get("schemas", ""))
        data["schemas"] = [s.strip() for s in schemas.split(",") if s.strip()]
        if "grouped" in attrs:
            data["grouped"] = flag(attrs["grouped"])
    return model.block(tag.name, data=data)


_GROUPS = {"tabs": ("tab", "tabs-item"), "stepper": ("step", "stepper-step"), "columns": ("column", "column")}


def _group(name: str, tag: Tag, children: list[TNode], conv: Converter) -> list[Node]:
    item_tag, item_type = _GROUPS[name]
    data: dict[str, Any] = _optional({}, tag.attrs, "fullWidth") if name != "stepper" else {}
    items: list[Node] = []
    for child in children:
        child_tag = child.token.meta.get("tag") if child.token.meta else None
        if child.token.type != "liquid_open" or child_tag is None or child_tag.name != item_tag:
            conv.ctx.warn(f"content between the items of a {{% {name} %}} block was moved out of it")
            items.extend(conv.block(child, "document"))
            continue
        item_data = _item_data(item_type, child_tag)
        blocks = conv.blocks(child.children, item_type)
        items.extend(conform.split(item_type, blocks, conform.maker(item_type, item_data)))
    if not any(item["type"] == item_type for item in items):
        conv.ctx.warn(f"a {{% {name} %}} block without items was left out")
        return [item for item in items if item["type"] != item_type]
    return conform.split(name, items, lambda run, _i: model.block(name, run, dict(data)))


def _item_data(item_type: str, tag: Tag) -> dict[str, Any]:
    attrs = tag.attrs
    if item_type == "tabs-item":
        return {"title": str(attrs.get("title", ""))}
    if item_type == "stepper-step":
        return {"icon": str(attrs["icon"])} if "icon" in attrs else {}
    data: dict[str, Any] = {}
    if "width" in attrs and length(attrs["width"]) is not None:
        data["width"] = length(attrs["width"])
    if attrs.get("valign") in ("top", "middle", "bottom"):
        data["verticalAlignment"] = attrs["valign"]
    return data
