"""Three-way merge of a tree's pages: which pages the result has, their fields, parents and order.

Page identity is the page id; a page's position is (parent id, order among its siblings). Page bodies
are merged by content.merge.trees (they need `load_document`); this module decides everything else and
reports conflicts as (page id, reason) pairs. Rules: docs/merge.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.merge.fields import merge_fields, merge_value
from bindery.engines.content.merge.order import merge_order, moved_items

Entry = dict[str, Any]
BODY = "documentId"  # merged by content.merge.trees, from the documents themselves


@dataclass
class Flat:
    """A tree's pages indexed by id: entries without their children, parents, sibling lists."""

    entries: dict[str, Entry] = field(default_factory=dict)
    parent: dict[str, str | None] = field(default_factory=dict)
    children: dict[str | None, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, pages: list[Mapping[str, Any]]) -> Flat:
        flat = cls()

        def visit(entries: list[Mapping[str, Any]], parent: str | None) -> None:
            flat.children[parent] = [entry["id"] for entry in entries]
            for entry in entries:
                flat.entries[entry["id"]] = {k: v for k, v in entry.items() if k != "pages"}
                flat.parent[entry["id"]] = parent
                has_pages = "pages" in entry
                flat.entries[entry["id"]]["pages"] = has_pages  # whether the key is there, not children
                visit(list(entry.get("pages") or []), entry["id"])

        visit(pages, None)
        return flat

    def siblings(self, parent: str | None) -> list[str]:
        return self.children.get(parent, [])


def moved(base: Flat, ours: Flat, theirs: Flat) -> tuple[set[str], set[str]]:
    """The base pages each side placed elsewhere: under another parent, or out of order among the
    siblings it kept (an insertion next to a page does not move it)."""
    out: tuple[set[str], set[str]] = (set(), set())
    for side, found in zip((ours, theirs), out, strict=True):
        found.update(page for page, parent in side.parent.items()
                     if page in base.parent and base.parent[page] != parent)
    for parent, pages in base.children.items():
        shuffled = moved_items(pages, ours.siblings(parent), theirs.siblings(parent))
        for found, items in zip(out, shuffled, strict=True):
            found.update(items)
    return out


@dataclass
class PageMerge:
    pages: list[Entry]  # the nested result, bodies still to merge
    bodies: dict[str, tuple[Any, Any, Any]]  # page id -> base, ours, theirs documentId (both changed)
    conflicts: list[tuple[str, str]]  # (page id, reason)
    titles: dict[str, str]


class _PageMerger:
    def __init__(self, base: list[Any], ours: list[Any], theirs: list[Any]) -> None:
        self.base, self.ours, self.theirs = Flat.of(base), Flat.of(ours), Flat.of(theirs)
        self.moved_ours, self.moved_theirs = moved(self.base, self.ours, self.theirs)
        self.entries: dict[str, Entry] = {}
        self.parent: dict[str, str | None] = {}
        self.bodies: dict[str, tuple[Any, Any, Any]] = {}
        self.conflicts: list[tuple[str, str]] = []
        self.titles = {page: entry["title"] for flat in (self.base, self.theirs, self.ours)
                       for page, entry in flat.entries.items()}

    def conflict(self, page: str, reason: str) -> None:
        if (page, reason) not in self.conflicts:
            self.conflicts.append((page, reason))

    def changed(self, side: Flat, page: str) -> bool:
        """Whether `side` edited the page or moved it to another parent. A reorder among the same
        siblings does not count: which of two swapped pages "moved" is a guess, and a deletion loses
        nothing a reorder did."""
        return side.entries[page] != self.base.entries[page] or side.parent[page] != self.base.parent[page]

    def decide(self, page: str) -> None:
        """Whether `page` is in the result, with which fields and under which parent."""
        b, o, t = (flat.entries.get(page) for flat in (self.base, self.ours, self.theirs))
        if b is None:
            assert o is not None or t is not None
            elsewhere = o is not None and t is not None and self.ours.parent[page] != self.theirs.parent[page]
            if o is not None and t is not None and (o != t or elsewhere):
                self.conflict(page, "added on both sides with different content or places")
            side = self.ours if o is not None else self.theirs
            self.entries[page], self.parent[page] = dict(side.entries[page]), side.parent[page]
            return
        if o is None and t is None:
            return
        if o is None or t is None:
            survivor = self.ours if o is not None else self.theirs
            if self.changed(survivor, page):
                self.conflict(page, "edited on one side, deleted on the other")
                self.entries[page], self.parent[page] = dict(survivor.entries[page]), survivor.parent[page]
            return
        # untouched on both sides (most pages of a large tree): nothing to merge
        merged = dict(b) if o == b and t == b else self.merged_fields(page, b, o, t)
        moved_o, moved_t = page in self.moved_ours, page in self.moved_theirs
        if moved_o and moved_t and self.ours.parent[page] != self.theirs.parent[page]:
            self.conflict(page, "moved to different places")
        self.entries[page] = merged
        self.parent[page] = self.theirs.parent[page] if moved_t and not moved_o else self.ours.parent[page]

    def merged_fields(self, page: str, b: Entry, o: Entry, t: Entry) -> dict[str, Any]:
        """A page both sides kept: its fields merged (conflicts reported), its body merged or set aside
        for a document-level merge."""
        merged, fields = merge_fields(b, o, t, skip=(BODY,))
        for name in fields:
            self.conflict(page, f"both sides changed the {name}")
        body = merge_value(b.get(BODY), o.get(BODY), t.get(BODY))
        if body[1]:
            self.bodies[page] = (b.get(BODY), o.get(BODY), t.get(BODY))
        elif body[0] is not None:
            merged[BODY] = body[0]
        return merged

    def check_parents(self) -> bool:
        """Every kept page's parent is kept, and no page is its own ancestor; False if not."""
        sound = True
        reported = {page for page, _ in self.conflicts}
        for page, parent in self.parent.items():
            if parent is not None and parent not in self.entries and page not in reported:
                side = "added" if page not in self.base.entries else "moved or edited"
                self.conflict(page, f"{side} under '{self.titles[parent]}', which the other side deleted")
                sound = False
        for page in self.parent:
            seen, cursor = {page}, self.parent.get(page)
            while cursor is not None and cursor in self.parent:
                if cursor in seen:
                    self.conflict(page, "moved to different places (under each other, one on each side)")
                    sound = False
                    break
                seen.add(cursor)
                cursor = self.parent[cursor]
        return sound

    def kept_children(self) -> dict[str | None, list[str]]:
        """The kept pages by parent, each list in `self.parent`'s order (read once parents are settled:
        a scan per parent would make building a 5,000-page tree quadratic)."""
        children: dict[str | None, list[str]] = {}
        for page, parent in self.parent.items():
            children.setdefault(parent, []).append(page)
        return children

    def order(self, parent: str | None, kept: dict[str | None, list[str]]) -> list[str]:
        keep = kept.get(parent, [])
        ordered = merge_order(self.base.siblings(parent), self.ours.siblings(parent),
                              self.theirs.siblings(parent), keep)
        for page in ordered.contested:
            self.conflict(page, "moved to different places")
        return ordered.order

    def build(self, parent: str | None, parent_type: str | None,
              kept: dict[str | None, list[str]] | None = None) -> list[Entry]:
        kept = self.kept_children() if kept is None else kept
        out: list[Entry] = []
        slugs: dict[str, str] = {}
        for page in self.order(parent, kept):
            entry = dict(self.entries[page])
            kind, slug = entry.get("type"), entry.get("slug")
            if parent_type is not None and kind == "group":
                self.conflict(page, "a group page cannot be nested (it was moved under another page)")
            if parent_type in ("link", "computed"):
                self.conflict(page, f"its parent '{self.titles[parent or '']}' became a {parent_type} page")
            if kind in ("document", "group") and isinstance(slug, str):
                if slug in slugs:
                    for same in (slugs[slug], page):
                        self.conflict(same, f"another page at the same level has the slug '{slug}'")
                slugs[slug] = page
            has_pages = entry.pop("pages", False)
            children = self.build(page, kind, kept)
            if children or has_pages:
                entry["pages"] = children
            out.append(entry)
        return out


def merge_pages(base: list[Any], ours: list[Any], theirs: list[Any]) -> PageMerge:
    merger = _PageMerger(base, ours, theirs)
    for page in dict.fromkeys([*merger.ours.entries, *merger.theirs.entries, *merger.base.entries]):
        merger.decide(page)
    pages = merger.build(None, None) if merger.check_parents() else []
    return PageMerge(pages, merger.bodies, merger.conflicts, merger.titles)
