"""A page's front matter <-> the page entry's fields.

    description, icon, hidden, noIndex, noRobotsIndex   as they are
    cover (a path or URL) + coverY                      cover {ref, yPos}
    layout {width, cover: {visible, size}, title: {visible}, …}   layout {width, cover, coverSize, title, …}
    vars                                                variables

A layout option outside the 0.146.0 enums (`cover: {size: background}`, as GitBook's own docs have) is
stored as the nearest official value (content.page_defaults.nearest_choice), which every read shows, and
as written under `original.layout` (a field no read shows), which an export writes back while the stored
value is still the one it was mapped to. Likewise a hint style outside the spec's (`{% hint style="tip" %}`),
which the document stores as the nearest official one: by block key under `original.hints`
(ParsedPage.hint_styles), for document_to_markdown to write back.

Past the spec's lengths: an icon longer than 50 characters (`Icon`) is left out of the entry and kept
whole under `original.icon`, written back while the page has no icon; a variable's string longer than 256
(`VariableValue`) is cut to 256 and kept whole under `original.vars`, written back while the value is
still the cut one.

Other keys (`if`, `metaLinks`, anything unknown) have no field in a page entry and are not kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bindery.engines.content.page_defaults import LAYOUT_CHOICES, nearest_choice

FLAGS = ("hidden", "noIndex", "noRobotsIndex")
MAX_ICON, MAX_VARIABLE = 50, 256  # the spec's `Icon` and `VariableValue` lengths
VISIBILITY = ("title", "description", "tableOfContents", "outline", "pagination", "metadata")
FIELDS = ("description", "icon", *FLAGS, "cover", "layout", "variables", "original")

FileRef = Callable[[str], Mapping[str, Any] | None]
RefUrl = Callable[[Mapping[str, Any]], str | None]


def _layout_from(value: Any) -> dict[str, Any] | str | None:
    if isinstance(value, str):
        return value  # a preset name
    if not isinstance(value, Mapping):
        return None
    out: dict[str, Any] = {}
    if isinstance(value.get("width"), str):
        out["width"] = value["width"]
    cover = value.get("cover")
    if isinstance(cover, Mapping):
        if isinstance(cover.get("visible"), bool):
            out["cover"] = cover["visible"]
        if isinstance(cover.get("size"), str):
            out["coverSize"] = cover["size"]
    for name in VISIBILITY:
        option = value.get(name)
        visible = option.get("visible") if isinstance(option, Mapping) else option
        if isinstance(visible, bool):
            out[name] = visible
    return out or None


def _official(layout: dict[str, Any]) -> dict[str, Any]:
    """The layout options outside the spec's enums, as written; `layout` gets their nearest values."""
    originals: dict[str, Any] = {}
    for name in LAYOUT_CHOICES:
        if name in layout and layout[name] not in LAYOUT_CHOICES[name]:
            originals[name] = layout[name]
            layout[name] = nearest_choice(name, layout[name])
    return originals


def _as_written(options: Mapping[str, Any], original: Any) -> dict[str, Any]:
    """The stored options with each original back in place, unless the option changed since import."""
    kept = original.get("layout") if isinstance(original, Mapping) else None
    if not isinstance(kept, Mapping):
        return dict(options)
    return {**options, **{name: value for name, value in kept.items()
                          if name in options and options[name] == nearest_choice(name, value)}}


def _layout_to(options: Any, original: Any = None) -> Any:
    if not isinstance(options, Mapping):
        return options
    options = _as_written(options, original)
    out: dict[str, Any] = {}
    if "width" in options:
        out["width"] = options["width"]
    pairs = (("visible", "cover"), ("size", "coverSize"))
    cover = {key: options[name] for key, name in pairs if name in options}
    if cover:
        out["cover"] = cover
    out.update({name: {"visible": options[name]} for name in VISIBILITY if name in options})
    return out


def _variables(written: Mapping[str, Any], original: dict[str, Any]) -> dict[str, Any]:
    """The page's variables (VariableValue: a string of at most 256 characters, a number, a boolean); a
    longer string is cut to 256 and kept whole under `original.vars`."""
    variables: dict[str, Any] = {}
    for name, value in written.items():
        if not isinstance(value, str | int | float):
            continue
        if isinstance(value, str) and len(value) > MAX_VARIABLE:
            original.setdefault("vars", {})[str(name)] = value
        variables[str(name)] = value[:MAX_VARIABLE] if isinstance(value, str) else value
    return variables


def from_front_matter(meta: Mapping[str, Any], resolve_file: FileRef, *,
                      hint_styles: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The fields of a page entry from its front matter and, kept for the export, its document's hint
    styles written otherwise than the spec's (`hint_styles`)."""
    fields: dict[str, Any] = {}
    original: dict[str, Any] = {}
    if isinstance(meta.get("description"), str | int | float) and not isinstance(meta["description"], bool):
        fields["description"] = str(meta["description"])
    icon = meta.get("icon")
    if isinstance(icon, str) and len(icon) > MAX_ICON:
        original["icon"] = icon  # no icon the wire may show, nor would a cut one be
    elif isinstance(icon, str) and icon:
        fields["icon"] = icon
    fields.update({flag: meta[flag] for flag in FLAGS if isinstance(meta.get(flag), bool)})
    if isinstance(meta.get("cover"), str) and meta["cover"]:
        ref = resolve_file(meta["cover"]) or {"kind": "url", "url": meta["cover"]}
        y = meta.get("coverY")
        y = y if isinstance(y, int | float) and not isinstance(y, bool) else 0
        fields["cover"] = {"ref": dict(ref), "yPos": y}
    layout = _layout_from(meta.get("layout"))
    if layout is not None:
        fields["layout"] = layout
        originals = _official(layout) if isinstance(layout, dict) else {}
        if originals:
            original["layout"] = originals
    if hint_styles:
        original["hints"] = dict(hint_styles)
    variables = meta.get("vars")
    if isinstance(variables, Mapping) and variables:
        fields["variables"] = _variables(variables, original)
    if original:
        fields["original"] = original
    return fields


def hint_styles(entry: Mapping[str, Any]) -> dict[str, str]:
    """The hint styles an import kept (from_front_matter), by block key."""
    kept = _kept(entry).get("hints")
    return {str(key): str(style) for key, style in kept.items()} if isinstance(kept, Mapping) else {}


def _kept(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    original = entry.get("original")
    return original if isinstance(original, Mapping) else {}


def to_front_matter(entry: Mapping[str, Any], ref_url: RefUrl) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    kept = _kept(entry)
    for name in ("description", "icon", *FLAGS):
        if name in entry:
            meta[name] = entry[name]
        elif name == "icon" and isinstance(kept.get("icon"), str):  # an icon too long for the wire
            meta[name] = kept["icon"]
    cover = entry.get("cover")
    if isinstance(cover, Mapping) and isinstance(cover.get("ref"), Mapping):
        url = ref_url(cover["ref"])
        if url is not None:
            meta["cover"] = url
            meta["coverY"] = cover.get("yPos", 0)
    if entry.get("layout"):
        meta["layout"] = _layout_to(entry["layout"], entry.get("original"))
    if entry.get("variables"):
        cut = kept.get("vars")
        whole: Mapping[str, Any] = cut if isinstance(cut, Mapping) else {}
        # a value cut at import is written whole, unless it was changed since
        meta["vars"] = {name: whole[name] if isinstance(whole.get(name), str)
                        and value == whole[name][:MAX_VARIABLE] else value
                        for name, value in entry["variables"].items()}
    return meta
