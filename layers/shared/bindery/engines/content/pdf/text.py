"""Text for the PDF renderer (bindery.engines.content.pdf.export): what the PDF's fonts can show, and a node's
plain text.

The renderer uses the PDF core fonts (Helvetica, Courier), which every reader has and which cost no
font file in the Lambda layer. They show Windows-1252: Latin-1 plus typographic quotes, dashes, the
bullet, the ellipsis and the euro sign. Any other character (CJK, emoji…) is written as "?": a PDF
that shows them would have to embed a Unicode font (several MB for CJK), see docs/dependencies.md.
No fpdf import here: this module is cheap to load.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

ENCODING = "windows-1252"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def pdf_text(text: str) -> str:
    """`text` as the core fonts can show it (tabs as four spaces, control characters dropped)."""
    cleaned = CONTROL.sub("", text.replace("\t", "    ").replace("\r\n", "\n").replace("\r", "\n"))
    return cleaned.encode(ENCODING, "replace").decode(ENCODING)


def _inline_text(node: Mapping[str, Any]) -> str:
    data = node.get("data") or {}
    kind = node.get("type")
    if kind == "expression":
        return str(data.get("expression") or "")
    if kind == "inline-math":
        return str(data.get("formula") or "")
    if kind == "button":
        return str(data.get("label") or "")
    if kind == "inline-image":
        return str(data.get("alt") or data.get("caption") or "")
    return "".join(plain_text(child) for child in node.get("nodes") or [])  # not an annotation's body


def plain_text(node: Any) -> str:
    """The text a node shows: leaves and inlines run together, blocks (and fragments) one per line."""
    if isinstance(node, list):
        return "\n".join(text for text in (plain_text(child) for child in node) if text)
    if not isinstance(node, Mapping):
        return ""
    kind = node.get("object")
    if kind == "text":
        return "".join(str(leaf.get("text") or "") for leaf in node.get("leaves") or [])
    if kind == "inline":
        return _inline_text(node)
    children = [*(node.get("nodes") or []), *(node.get("fragments") or [])]
    if kind == "block" and node.get("type") in ("paragraph", "heading-1", "heading-2", "heading-3",
                                                 "code-line"):
        return "".join(plain_text(child) for child in children)
    return plain_text(children)


def ref_label(ref: Any) -> str:
    """How a content reference reads in print: a URL as itself, anything else by kind and id."""
    if not isinstance(ref, Mapping):
        return ""
    if ref.get("kind") == "url":
        return str(ref.get("url") or "")
    kind = str(ref.get("kind") or "")
    target = ref.get(kind) or ref.get("reusableContent") or ref.get("page") or ref.get("anchor") or ""
    return f"{kind} {target}".strip()


def ref_url(ref: Any) -> str:
    """The link a reference makes in the PDF: only web URLs (pages of the space have no URL there)."""
    if isinstance(ref, Mapping) and ref.get("kind") == "url":
        url = str(ref.get("url") or "")
        if url.startswith(("http://", "https://", "mailto:")):
            return url
    return ""
