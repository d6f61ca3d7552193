"""Editing a tree value (content.tree) in memory: insert, move, update and remove pages. No I/O.

`EditableTree` holds a deep copy of a tree value; each method raises `EditError` (a message naming
what is wrong) and leaves the tree as it was when the edit is impossible. The caller commits the
result with domain.revisions.commit_revision, which validates it once more as a whole.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from bindery.engines.content.tree import Value

PARENT_TYPES = ("document", "group")
SLUG_MAX = 100


class EditError(ValueError):
    """An edit that cannot be applied to this tree."""


def slugify(title: str) -> str:
    """GitBook-like slug: ASCII lower case, runs of anything else become one dash."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
    return slug[:SLUG_MAX].strip("-") or "page"


class EditableTree:
    def __init__(self, value: Mapping[str, Any]) -> None:
        self.value: Value = copy.deepcopy(dict(value))
        self.value.setdefault("pages", [])
        self.value.setdefault("files", [])

    # --- lookups ------------------------------------------------------------------------------------
    def _locate(self, page_id: str) -> tuple[list[dict[str, Any]], int, dict[str, Any] | None] | None:
        """The sibling list holding the page, its index there, and its parent entry (None: top level)."""
        stack: list[tuple[list[dict[str, Any]], dict[str, Any] | None]] = [(self.value["pages"], None)]
        while stack:
            siblings, parent = stack.pop()
            for index, entry in enumerate(siblings):
                if entry["id"] == page_id:
                    return siblings, index, parent
                if entry.get("pages"):
                    stack.append((entry["pages"], entry))
        return None

    def page(self, page_id: str) -> dict[str, Any] | None:
        found = self._locate(page_id)
        return found[0][found[1]] if found else None

    def parent_of(self, page_id: str) -> str | None:
        found = self._locate(page_id)
        return found[2]["id"] if found and found[2] else None

    def index_of(self, page_id: str) -> int:
        found = self._locate(page_id)
        return found[1] if found else 0

    def children(self, into: str | None) -> list[dict[str, Any]]:
        """The sibling list a page goes into: the top level, or a document or group page's children."""
        if into is None:
            pages: list[dict[str, Any]] = self.value["pages"]
            return pages
        parent = self.page(into)
        if parent is None:
            raise EditError(f"into: no page {into} in the change request")
        if parent["type"] not in PARENT_TYPES:
            raise EditError(f"into: a {parent['type']} page has no child pages")
        return parent.setdefault("pages", [])  # type: ignore[no-any-return]

    def contains(self, ancestor_id: str, page_id: str) -> bool:
        """Whether `page_id` is `ancestor_id` or below it."""
        ancestor = self.page(ancestor_id)
        stack = [ancestor] if ancestor else []
        while stack:
            entry = stack.pop()
            if entry["id"] == page_id:
                return True
            stack.extend(entry.get("pages") or [])
        return False

    # --- slugs --------------------------------------------------------------------------------------
    def free_slug(self, siblings: list[dict[str, Any]], wanted: str, *, explicit: bool,
                  skip: str | None = None) -> str:
        """`wanted` if no sibling has it; an explicit slug that collides is an error, a derived one
        gets a number."""
        taken = {entry.get("slug") for entry in siblings if entry["id"] != skip}
        if wanted not in taken:
            return wanted
        if explicit:
            raise EditError(f"slug: another page at the same level has the slug {wanted!r}")
        number = 2
        while f"{wanted}-{number}" in taken:
            number += 1
        return f"{wanted}-{number}"

    # --- edits --------------------------------------------------------------------------------------
    def insert(self, entry: dict[str, Any], into: str | None, at: int | None) -> None:
        if into is not None and entry["type"] == "group":
            raise EditError("into: a group page stays at the top level")
        siblings = self.children(into)
        siblings.insert(len(siblings) if at is None else min(at, len(siblings)), entry)

    def detach(self, page_id: str) -> dict[str, Any]:
        found = self._locate(page_id)
        if found is None:
            raise EditError(f"page: no page {page_id} in the change request")
        siblings, index, _ = found
        return siblings.pop(index)

    def move(self, page_id: str, into: str | None, at: int | None, *, reparent: bool) -> None:
        """`reparent`: go under `into` (None: the top level); otherwise stay under the same parent, at
        `at` among the siblings."""
        if not reparent:
            into = self.parent_of(page_id)
        elif into is not None and self.contains(page_id, into):
            raise EditError("into: a page cannot move into itself or one of its own pages")
        entry = self.page(page_id)
        if entry is None:
            raise EditError(f"page: no page {page_id} in the change request")
        if at is None and not reparent:
            return
        backup = copy.deepcopy(self.value["pages"])
        self.detach(page_id)
        try:
            siblings = self.children(into)
            if entry.get("slug") is not None:
                self.free_slug(siblings, entry["slug"], explicit=True)
            self.insert(entry, into, at)
        except EditError:
            self.value["pages"] = backup
            raise

    def descendant_ids(self, page_id: str) -> list[str]:
        entry = self.page(page_id)
        ids: list[str] = []
        stack = [entry] if entry else []
        while stack:
            current = stack.pop()
            ids.append(current["id"])
            stack.extend(current.get("pages") or [])
        return ids

    def page_ids(self) -> set[str]:
        ids: set[str] = set()
        stack = list(self.value["pages"])
        while stack:
            entry = stack.pop()
            ids.add(entry["id"])
            stack.extend(entry.get("pages") or [])
        return ids
