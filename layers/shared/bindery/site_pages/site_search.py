"""The search box of a published site: the site space's current revision searched with the existing
search index (bindery.search; built now when the indexer has not yet), results rendered server-side
(docs/published-sites.md, "Search")."""

from __future__ import annotations

from dataclasses import dataclass

from bindery.search import storage
from bindery.search.indexing import ensure_index
from bindery.search.query import PageHit, search
from bindery.store.revisions import Revision

MAX_QUERY = 512
RESULTS = 20


@dataclass(frozen=True)
class SiteHits:
    count: int
    hits: list[PageHit]


def search_revision(revision: Revision, query: str) -> SiteHits:
    query = query.strip()[:MAX_QUERY]
    if not query:
        return SiteHits(0, [])
    pointer = ensure_index(revision)
    total, hits = search(storage.connect(revision.space_id, pointer.digest), query, limit=RESULTS)
    return SiteHits(total, hits)
