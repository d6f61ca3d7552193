"""Blocks that point elsewhere: content refs (cards), embeds, reusable content (rendered in place),
OpenAPI blocks and integration blocks (links to what they show: their content lives outside the page)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote, urlsplit

from markupsafe import Markup

from bindery.engines.site_pages.rendering.context import MAX_INCLUDES, attributes
from bindery.engines.site_pages.rendering.inlines import ref_title
from bindery.engines.site_pages.rendering.nodes import Node, data_of, string
from bindery.engines.site_pages.rendering.urls import https_url, safe_url

if TYPE_CHECKING:
    from bindery.engines.site_pages.rendering.context import RenderContext

# An allowed embed runs the embedded page's scripts, in its own origin only: without
# `allow-same-origin`, a frame of the site itself could not reach the page around it.
EMBED_SANDBOX = "allow-scripts allow-popups allow-presentation"
HTTP_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})
_YOUTUBE_HOSTS = frozenset({"www.youtube.com", "youtube.com", "m.youtube.com", "youtu.be"})


def render_content_ref(context: RenderContext, node: Node) -> Markup:
    ref = data_of(node).get("ref")
    url = context.ref_url(ref)
    title = Markup('<span class="bd-content-ref-title">{}</span>').format(ref_title(context, ref, url))
    return Markup('<div class="bd-content-ref">{}</div>').format(context.link(url, title))


def _frame_url(url: str) -> str:
    """The URL to frame: YouTube's watch pages refuse to be framed, their embed player does not."""
    parts = urlsplit(url)
    video = ""
    if parts.hostname in _YOUTUBE_HOSTS:
        video = parts.path.strip("/") if parts.hostname == "youtu.be" else (
            parse_qs(parts.query).get("v") or [""])[0]
    if video and video.replace("-", "").replace("_", "").isalnum():
        return f"https://www.youtube-nocookie.com/embed/{quote(video)}"
    return url


def render_embed(context: RenderContext, node: Node) -> Markup:
    data = data_of(node)
    url = safe_url(data.get("url"))
    if url is None:
        return Markup("")
    css = "bd-embed bd-full-width" if data.get("fullWidth") is True else "bd-embed"
    link = context.link(url, Markup("{}").format(url), css="bd-embed-link")
    framed = https_url(url) if context.allow_embeds else None
    if framed is None:
        return Markup('<div class="{}">{}</div>').format(css, link)
    frame = Markup("<iframe{}></iframe>").format(attributes(
        src=_frame_url(framed), sandbox=EMBED_SANDBOX, loading="lazy", referrerpolicy="no-referrer",
        title=url, allowfullscreen=True))
    return Markup('<figure class="{}">{}<figcaption>{}</figcaption></figure>').format(css, frame, link)


def render_reusable_content(context: RenderContext, node: Node) -> Markup:
    """The reusable content's document in place; nothing when it is missing, includes itself, or the
    chain of includes is too long."""
    ref = data_of(node).get("ref")
    content_id = ref.get("reusableContent") if isinstance(ref, Mapping) else None
    if not isinstance(content_id, str) or content_id in context.including \
            or len(context.including) >= MAX_INCLUDES:
        return Markup("")
    content = context.links.reusable_content(reusable_content_id=content_id)
    if not isinstance(content, Mapping):
        return Markup("")
    context.including.append(content_id)
    try:
        body = context.blocks(content.get("nodes"))
    finally:
        context.including.pop()
    return Markup('<div class="bd-reusable-content">{}</div>').format(body)


def render_openapi(context: RenderContext, node: Node) -> Markup:
    """An OpenAPI block (operation, webhook, schemas, or the older `swagger`): its method and path or
    names, linking to the specification when the reference resolves to a URL or file."""
    data = data_of(node)
    method = string(data.get("method")) or ""
    method = method.lower() if method.lower() in HTTP_METHODS else ""
    path = string(data.get("path")) or string(data.get("name")) or ""
    schemas = data.get("schemas")
    if not path and isinstance(schemas, list):
        path = ", ".join(name for name in schemas if isinstance(name, str))
    label = Markup("{}<code>{}</code>").format(
        Markup('<span class="bd-method bd-method-{0}">{1}</span> ').format(method, method.upper())
        if method else Markup(""), path or "OpenAPI")
    return Markup('<div class="bd-openapi">{}</div>').format(
        context.link(context.ref_url(data.get("ref")), label))


def render_integration(context: RenderContext, node: Node) -> Markup:
    """An integration block: its integration's output needs the integration itself, so the reader gets
    its name and, when the block has one, its URL."""
    data = data_of(node)
    name = "/".join(part for part in (string(data.get("integration")), string(data.get("block"))) if part)
    url = safe_url(data.get("url"))
    label = Markup("{}").format(url or name or "integration")
    return Markup('<div class="bd-integration">{}</div>').format(context.link(url, label))
