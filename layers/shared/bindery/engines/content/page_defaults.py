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

# The layout options the 0.146.0 wire can carry (RevisionPageLayoutOptionsWidth, …CoverSize), and the
# nearest of them for what GitBook writes beyond them: a `background` cover fills the page's width as a
# `full` one does; `full`-width pages are the widest the spec has. Anything else: the default.
LAYOUT_CHOICES: dict[str, tuple[str, ...]] = {"width": ("default", "wide"), "coverSize": ("hero", "full")}
NEAREST_CHOICE: dict[str, dict[str, str]] = {
    "width": {"full": "wide", "fullwidth": "wide", "full-width": "wide", "wider": "wide", "max": "wide"},
    "coverSize": {"background": "full", "fullwidth": "full", "full-width": "full", "large": "full"},
}


def nearest_choice(name: str, value: Any) -> Any:
    """The official value of a layout option nearest to `value` (itself when it is one): what the wire
    shows, and what Git Sync stores next to the original it writes back
    (bindery.engines.gitsync.page_fields)."""
    choices = LAYOUT_CHOICES.get(name)
    if choices is None or value in choices:
        return value
    return NEAREST_CHOICE[name].get(str(value).strip().lower(), DEFAULT_LAYOUT[name])


def layout(stored: Any) -> dict[str, Any]:
    """A page's complete layout: a preset by name, or the stored fields over the default layout."""
    if isinstance(stored, str):
        return dict(LAYOUT_PRESETS.get(stored, DEFAULT_LAYOUT))
    return {**DEFAULT_LAYOUT, **(stored if isinstance(stored, Mapping) else {})}
