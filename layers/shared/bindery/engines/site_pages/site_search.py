"""The search box of a published site (docs/published-sites.md, "Search"): every part of the site this
visitor may open — each section's site spaces shown to them, exactly those of the navigation (the
SiteMap: visibility, share links and visitor claims were decided before it was built) — searched with
the existing index of each space's current revision (bindery.engines.search; built now when the indexer has
not yet), merged best first by the index's own score and labelled with the part they come from. `scope`
`current` narrows the search to the site space shown.

At most `MAX_PARTS` site spaces are searched per request: the current one first, then each section's
default site space in navigation order, then the other site spaces in navigation order. A space shown by
several site spaces is searched once, under the first of them.

Reads: the index pointers of every space searched in one BatchGetItem (the spaces' current revisions
came with the page view's BatchGetItem); a missing pointer is built as a space search would (GetItem of
the revision, its tree and documents). Index files are cached on local disk (bindery.engines.search.storage).
"""

from __future__ import annotations

from dataclasses import dataclass

from bindery.engines.search import storage
from bindery.engines.search.indexing import build_index
from bindery.engines.search.query import PageHit, search
from bindery.engines.site_pages.site_map import Place, SiteMap, SiteSpaceLink
from bindery.store import revisions as revision_store
from bindery.store import search as search_store
from bindery.store.search import IndexPointer

MAX_QUERY = 512
RESULTS = 20
MAX_PARTS = 10  # site spaces searched by one request: each is an index query (and, cold, a download)


@dataclass(frozen=True)
class Part:
    """A site space searched, and how its results are labelled (its section, and its own title when
    the section shows several)."""

    variant: SiteSpaceLink
    label: str


@dataclass(frozen=True)
class SiteHit:
    part: Part
    hit: PageHit


@dataclass(frozen=True)
class SiteHits:
    count: int  # matching pages in all the parts searched
    hits: list[SiteHit]  # the best RESULTS of them, best first


def _query(text: str) -> str:
    return text.strip()[:MAX_QUERY]


def _label(variant: SiteSpaceLink, variants: list[SiteSpaceLink], section: str | None) -> str:
    """The section's title, and the site space's when the section shows several (or there are no
    sections): "Guides / v2"."""
    names = ([section] if section else []) + ([variant.title] if len(variants) > 1 or not section else [])
    return " / ".join(name for name in names if name)


def site_parts(site_map: SiteMap, place: Place) -> list[Part]:
    """Every site space the visitor is shown, one per space, in the order they are searched (the current
    one first, then each section's default, then the others: `MAX_PARTS` of them reach every section
    before a second variant of any); uncapped."""
    shown: list[tuple[list[SiteSpaceLink], str | None]] = [
        (section.variants, section.section.title) for section in site_map.sections]
    shown += [(site_map.root_variants, None)] if site_map.root_variants else []
    ordered = [(v, variants, title) for variants, title in shown for v in variants[:1]]
    ordered += [(v, variants, title) for variants, title in shown for v in variants[1:]]
    ordered.sort(key=lambda entry: entry[0].site_space.id != place.variant.site_space.id)  # stable
    parts: list[Part] = []
    seen: set[str] = set()
    for variant, variants, title in ordered:
        if variant.space.id not in seen:
            seen.add(variant.space.id)
            parts.append(Part(variant, _label(variant, variants, title)))
    return parts


def _pointers(parts: list[Part]) -> dict[str, IndexPointer]:
    """Each part's index pointer by space id: one BatchGetItem; a missing one built now."""
    wanted = [(part.variant.space.id, part.variant.space.revision or "") for part in parts]
    known = search_store.index_pointers(wanted)
    pointers: dict[str, IndexPointer] = {}
    for space_id, revision_id in wanted:
        pointer = known.get((space_id, revision_id))
        if pointer is None:
            revision = revision_store.get_revision(space_id, revision_id)
            if revision is None:  # the space moved on since its item was read: nothing to search
                continue
            pointer = build_index(revision)  # its pointer was just read missing
        pointers[space_id] = pointer
    return pointers


def search_parts(parts: list[Part], query: str) -> SiteHits:
    """The pages of `parts` matching `query`, the best RESULTS of them all first; nothing for a blank
    query. Scores of different indexes are compared as they are (bm25 of each index)."""
    query = _query(query)
    if not query or not parts:
        return SiteHits(0, [])
    pointers = _pointers(parts)
    count, found = 0, []
    for part in parts:
        pointer = pointers.get(part.variant.space.id)
        if pointer is None:
            continue
        total, hits = search(storage.connect(pointer.space_id, pointer.digest), query, limit=RESULTS)
        count += total
        found += [SiteHit(part, hit) for hit in hits]
    # Stable: equal scores keep the parts' order (the current one first).
    return SiteHits(count, sorted(found, key=lambda found_hit: found_hit.hit.score)[:RESULTS])
