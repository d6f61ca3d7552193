"""Images, drawings and files, from the blob store through `links.file_url` (or a URL reference).

An image with a dark variant is two `<img>`, one shown per theme by blocks.css (`bd-light-only`,
`bd-dark-only`), so that it follows the site's theme switch and not only the browser's preference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from bindery.engines.site_pages.rendering.context import attributes
from bindery.engines.site_pages.rendering.inlines import ref_title
from bindery.engines.site_pages.rendering.nodes import Node, children, data_of, fragment, string

if TYPE_CHECKING:
    from bindery.engines.site_pages.rendering.context import RenderContext

ALIGNMENTS = frozenset({"left", "center", "right"})


def length(value: Any) -> tuple[int | None, str | None]:
    """(pixels for the `width` attribute, or a `bd-w-<percent>` class, by tens) of a `Length`."""
    if isinstance(value, Mapping):
        unit, number = value.get("unit"), value.get("value")
    else:
        unit, number = "px", value
    if isinstance(number, bool) or not isinstance(number, int | float) or not 0 < number < 100_000:
        return None, None
    if unit == "%":
        return None, f"bd-w-{max(10, min(100, round(number / 10) * 10))}"
    return (round(number), None) if unit == "px" else (None, None)


def image_tags(context: RenderContext, data: Mapping[str, Any], *, css: str | None = None) -> Markup:
    """The `<img>` of an image (two with a dark variant), or its alt text when its file is unreachable."""
    alt = string(data.get("alt")) or ""
    src = context.ref_url(data.get("ref"))
    if src is None:
        return Markup('<span class="bd-missing-image">{}</span>').format(alt) if alt else Markup("")
    width, width_class = length(data.get("width"))
    classes = " ".join(name for name in (css, width_class) if name) or None
    dark = context.ref_url(data.get("refDark"))
    if dark is None:
        return Markup("<img{}>").format(
            attributes(src=src, alt=alt, width=width, css=classes, loading="lazy"))
    both = f"{classes} " if classes else ""
    return Markup("<img{}><img{}>").format(
        attributes(src=src, alt=alt, width=width, css=both + "bd-light-only", loading="lazy"),
        attributes(src=dark, alt=alt, width=width, css=both + "bd-dark-only", loading="lazy"))


def _figure(context: RenderContext, node: Node) -> Markup:
    caption = context.blocks(fragment(node, "caption"))
    return Markup('<figure class="bd-image">{}{}</figure>').format(
        image_tags(context, data_of(node)),
        Markup("<figcaption>{}</figcaption>").format(caption) if caption else Markup(""))


def render_images(context: RenderContext, node: Node) -> Markup:
    data = data_of(node)
    classes = ["bd-images"]
    if data.get("align") in ALIGNMENTS:
        classes.append(f"bd-images-{data['align']}")
    if data.get("withFrame") is True:
        classes.append("bd-framed")
    if data.get("fullWidth") is True:
        classes.append("bd-full-width")
    figures = Markup("").join(_figure(context, image) for image in children(node)
                              if image.get("type") == "image")
    return Markup('<div class="{}">{}</div>').format(" ".join(classes), figures)


def render_image(context: RenderContext, node: Node) -> Markup:
    """An image outside an `images` block (the spec keeps them inside one, but documents may not)."""
    return render_images(context, {"nodes": [node]})


def render_drawing(context: RenderContext, node: Node) -> Markup:
    return Markup('<figure class="bd-drawing">{}</figure>').format(
        image_tags(context, {"ref": data_of(node).get("ref"), "alt": ""}))


def render_file(context: RenderContext, node: Node) -> Markup:
    ref = data_of(node).get("ref")
    url = context.ref_url(ref)
    caption = context.blocks(fragment(node, "caption"))
    label = Markup('<span class="bd-file-name">{}</span>').format(ref_title(context, ref, url))
    link = context.link(url, label, css="bd-file-link")
    return Markup('<div class="bd-file">{}{}</div>').format(link, caption)
