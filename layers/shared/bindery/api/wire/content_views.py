"""Which revision a content response shows, and how (bindery.api.wire.content): apart from the content
shapes, so that a response that only links to a space's content (a search hit) does not import them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from bindery.api.wire.urls import app_url


@dataclass(frozen=True)
class View:
    """Which revision is shown, and how: `current` content links to the space, others to the revision."""

    space_id: str
    revision_id: str
    current: bool
    metadata: bool = True

    def stored(self) -> dict[str, Any]:
        """The validation context of a response built from this revision's stored tree: the item a
        stored value the response model refuses is logged with (models.base.stored_or)."""
        return {"item": f"space {self.space_id} revision {self.revision_id}"}

    def app_url(self, path: str = "") -> str:
        base = f"/s/{self.space_id}/"
        if not self.current:
            base += f"~/revisions/{self.revision_id}/"
        return app_url(base + quote(path))
