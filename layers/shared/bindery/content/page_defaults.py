"""What a page shows for what it does not store: its complete layout (from a preset name, a partial
layout or nothing) and, for a document page without a body, the empty document.

Reads (bindery.domain.content_reads), change-request exports and the wire shapes all show pages the same
way, so these values live here, below all of them (bindery.api.wire.content re-exports them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULT_LAYOUT: dict[str, Any] = {
    "width": "default", "cover": True, "coverSize": "hero", "title": True, "description": True,
    "tableOfContents": True, "outline": True, "pagination": True, "metadata": True,
}
LAYOUT_PRESETS: dict[str, dict[str, Any]] = {
    "docs": DEFAULT_LAYOUT,
    "editorial": {**DEFAULT_LAYOUT, "width": "wide", "tableOfContents": False, "outline": False},
    "landing": {**DEFAULT_LAYOUT, "width": "wide", "coverSize": "full", "tableOfContents": False,
                "outline": False, "pagination": False, "metadata": False},
}
EMPTY_DOCUMENT: dict[str, Any] = {"object": "document", "data": {}, "nodes": []}


def layout(stored: Any) -> dict[str, Any]:
    """A page's complete layout: a preset by name, or the stored fields over the default layout."""
    if isinstance(stored, str):
        return dict(LAYOUT_PRESETS.get(stored, DEFAULT_LAYOUT))
    return {**DEFAULT_LAYOUT, **(stored if isinstance(stored, Mapping) else {})}
