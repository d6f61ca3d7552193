"""The site's URLs for what a document refers to (the renderer's `LinkResolver`): pages and files of the
site space shown, other spaces the site shows, and reusable contents of the revision."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from bindery.engines.content.tree import Tree
from bindery.engines.site_pages.site_map import SiteMap, SiteSpaceLink
from bindery.store import blobs

INTERNAL = "~site"  # the prefix of the site's own routes below a site space: never a page slug


def internal(url: str, *parts: str) -> str:
    return "/".join([url.rstrip("/"), INTERNAL, *(quote(part, safe="") for part in parts)])


def page_url(variant: SiteSpaceLink, path: str, anchor: str | None = None) -> str:
    url = variant.url.rstrip("/") + ("/" + path if path else "")
    return (url or "/") + (f"#{quote(anchor, safe='-_.')}" if anchor else "")


@dataclass
class SiteLinks:
    site_map: SiteMap
    variant: SiteSpaceLink
    tree: Tree

    def _variant(self, space_id: str | None) -> SiteSpaceLink | None:
        if space_id is None or space_id == self.variant.space.id:
            return self.variant
        return self.site_map.variant_for_space(space_id)

    def shows_here(self, space_id: str | None) -> bool:
        """Whether a reference to `space_id` (None: this one) is to the site space shown."""
        return self._variant(space_id) is self.variant

    def page_url(self, *, space_id: str | None, page_id: str, anchor: str | None) -> str | None:
        variant = self._variant(space_id)
        if variant is None:
            return None
        if variant is self.variant:
            path = self.tree.path_of(page_id)
            return page_url(variant, path, anchor) if path is not None else None
        # Another space's tree is not read for a link: its own route finds the page.
        suffix = f"#{quote(anchor, safe='-_.')}" if anchor else ""
        return internal(variant.url, "page", page_id) + suffix

    def page_title(self, *, space_id: str | None, page_id: str) -> str | None:
        """A page of the space shown by its title (another space's tree is not read for a title)."""
        if self._variant(space_id) is not self.variant:
            return None
        located = self.tree.page(page_id)
        return str(located.entry.get("title") or "") or None if located else None

    def file_name(self, *, space_id: str | None, file_id: str) -> str | None:
        if self._variant(space_id) is not self.variant:
            return None
        entry = self.tree.file(file_id)
        return str(entry.get("name") or "") or None if entry else None

    def file_url(self, *, space_id: str | None, file_id: str) -> str | None:
        variant = self._variant(space_id)
        return internal(variant.url, "files", file_id) if variant is not None else None

    def space_url(self, *, space_id: str) -> str | None:
        variant = self._variant(space_id)
        return variant.url if variant is not None else None

    def reusable_content(self, *, reusable_content_id: str) -> Mapping[str, Any] | None:
        entry = self.tree.reusable_content(reusable_content_id)
        digest = entry.get("document") if entry else None
        if not digest:
            return None
        document: Mapping[str, Any] = blobs.get_value(self.variant.space.id, str(digest))
        return document
