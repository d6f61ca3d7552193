"""SPACE/search and ORG/search: full-text search of spaces' current revisions (docs/search.md).

A space search checks the caller's access (any role reads), reads the space's current revision (cached)
and its index pointer (GetItem; only the first time the function searches the revision: which index a
revision has never changes), then queries the index file, cached on local disk after its first use.
Pages come best first, `limit` at a time; the cursor pins the revision the first page searched, so that
paging through results stays within one revision while the space moves on.

An organization search pages through the organization's spaces (one GSI1 Query, like ORG/spaces), keeps
those the caller may read (one BatchGetItem), reads the index pointers this function has not read yet
(one BatchGetItem, none when it knows them all) and returns one item per space with matches: its best
`PAGES_PER_SPACE` pages. A page of results can hold fewer items than spaces read (even none) and still
have a next page. `count` is how many of the spaces the
caller may read match: the first page searches them all to tell (its cursor carries the count on).

Results are the search engine's hits (bindery.engines.search.query.PageHit) with the revision they were found
in; bindery.api.wire.search shapes them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import member_roles, roles_on, space_access
from bindery.engines.search import storage
from bindery.engines.search.indexing import ensure_index
from bindery.engines.search.query import PageHit, search
from bindery.platform.errors import BadRequest, NotFound
from bindery.platform.pagination import (
    MAX_LIMIT,
    Listing,
    carried_count,
    decode_cursor,
    encode_cursor,
    next_page,
    open_page,
)
from bindery.store import revisions as revision_store
from bindery.store import search as search_store
from bindery.store import spaces as space_store
from bindery.store.revisions import Revision
from bindery.store.search import IndexPointer
from bindery.store.spaces import Space

MAX_QUERY = 512
ORG_SPACES_PER_PAGE = 25  # each space searched costs an index query (and, cold, a download)
PAGES_PER_SPACE = 10
NO_REVISION = "No matching revision"


def checked_query(query: str) -> str:
    if not query.strip():
        raise BadRequest("query: must not be empty")
    if len(query) > MAX_QUERY:
        raise BadRequest(f"query: at most {MAX_QUERY} characters")
    return query


def _scope(kind: str, owner: str, query: str) -> str:
    return f"{kind}:{owner}:{hashlib.sha256(query.encode()).hexdigest()[:24]}"


@dataclass(frozen=True)
class SpaceHits:
    """A space's pages matching a query (best first), in its revision searched."""

    space_id: str
    title: str
    revision_id: str
    hits: list[PageHit]


@dataclass(frozen=True)
class SpaceSearch:
    """A page of a space search's results, and the revision searched (the cursor pins it)."""

    space_id: str
    revision_id: str
    hits: Listing[PageHit]


def _revision(space_id: str, revision_id: str) -> Revision:
    revision = revision_store.get_revision(space_id, revision_id) if revision_id else None
    if revision is None:
        raise NotFound(NO_REVISION)
    return revision


def search_space(caller: Caller, space_id: str, query: str, *, limit: int, page: str | None) -> SpaceSearch:
    checked_query(query)
    scope = _scope("search", space_id, query)
    start = decode_cursor(scope, page)
    access = space_access(caller, space_id)
    access.require("read", "search this space")
    assert isinstance(access.node, Space)
    offset, pinned = 0, access.node.revision
    if start is not None:
        if not isinstance(start.get("o"), int) or not isinstance(start.get("r"), str):
            raise BadRequest("page: invalid page cursor")
        offset, pinned = start["o"], start["r"]
    revision = _revision(space_id, pinned)
    index = storage.connect_revision(space_id, revision.id, lambda: ensure_index(revision).digest)
    total, hits = search(index, query, limit=limit, offset=offset)
    more = offset + limit < total
    cursor = encode_cursor(scope, {"r": revision.id, "o": offset + limit}) if more else None
    return SpaceSearch(space_id, revision.id, Listing(items=hits, next_cursor=cursor, count=total))


def _pointer(space: Space, known: dict[tuple[str, str], IndexPointer]) -> IndexPointer:
    found = known.get((space.id, space.revision))
    return found if found is not None else ensure_index(_revision(space.id, space.revision))


def search_organization(caller: Caller, org_id: str, query: str, *,
                        limit: int, page: str | None) -> Listing[SpaceHits]:
    checked_query(query)
    # The caller is in the scope: the count a cursor carries is what they may see.
    scope = _scope("search-org", org_id, query) + f":{caller.user_id}"
    start = open_page(scope, page)
    result = space_store.org_spaces_page(org_id, min(limit, ORG_SPACES_PER_PAGE), start.start)
    spaces = [Space.from_item(item) for item in result.items]
    # Membership is checked after the Query so that each read stays one request; a non-member gets a 404.
    member, roles = member_roles(org_id, caller, spaces)
    items = _spaces_with_hits(query, [space for space in spaces if roles[space.id] is not None])

    # Which spaces match is known only by searching them: the first page counts them with a pass over
    # the rest of the organization's spaces (each searched as a page of results would), and its cursor
    # carries the count to the later pages.
    def matching(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        more = space_store.org_spaces_page(org_id, MAX_LIMIT, start_key)
        batch = [Space.from_item(item) for item in more.items]
        seen = roles_on(member, batch)
        return len(_spaces_with_hits(query, [space for space in batch if seen[space.id] is not None])), \
            more.last_key

    count = carried_count(start, (len(items), result.last_key), matching)
    return Listing(items, next_page(scope, result.last_key, count), count)


def _spaces_with_hits(query: str, spaces: list[Space]) -> list[SpaceHits]:
    """One item per space with matches (its best `PAGES_PER_SPACE` pages), in the order of `spaces`."""
    readable = [space for space in spaces if space.revision]
    # Pointers already read by this function are not read again (none at all when every one is known).
    known = search_store.index_pointers((space.id, space.revision) for space in readable
                                        if not storage.knows_revision(space.id, space.revision))
    items: list[SpaceHits] = []
    for space in readable:
        index = storage.connect_revision(space.id, space.revision, _digest_finder(space, known))
        _, hits = search(index, query, limit=PAGES_PER_SPACE)
        if hits:
            items.append(SpaceHits(space.id, space.title, space.revision, hits))
    return items


def _digest_finder(space: Space, known: dict[tuple[str, str], IndexPointer]) -> Callable[[], str]:
    return lambda: _pointer(space, known).digest
