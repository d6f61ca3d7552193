"""Search results on the wire: the spec's `SearchPageResult` (with its `SearchSectionResult`s), and an
organization search's `SearchSpaceResult` (a space's best pages). Results link to the space's current
content in the app (a search reads the current revision).

Each result's app URL is made once for the page and its sections, from the view's base URL made once
for all of them. An organization search's space of results is validated as one model (one pydantic
call, not one per result).

A space search's page of results is written as JSON here (`hits_to_json`), from the values this module
shapes, not validated into `SearchPageResultList` and serialized by Powertools (its response validation's
`dump_python`, then the resolver's `json.dumps`): three passes over up to 1,000 results, each costing
more than writing them (bench/README.md, "Search"), where the validation checks nothing the types do
not already guarantee: every value is a `str` of a `PageHit` (typed, built by the search engine) or
made of them here, in a shape fixed by `_result`. The bytes are those the validated model gives through
Powertools, with and without sections or cursor, any character (tests/api/search/test_search_wire.py);
the model stays the route's declared response (the OpenAPI document).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from pydantic_core import PydanticSerializationError, to_json

from bindery.api.responses.search import SearchPageResultList, SearchSpaceResult
from bindery.api.wire.content_views import View
from bindery.engines.search.query import PageHit
from bindery.platform.pagination import Listing

# What quote() leaves as it is (its always-safe characters and "/"): most paths, which are then not
# encoded and decoded again (a tenth of a page of results' shaping).
_UNQUOTED = re.compile(r"[A-Za-z0-9_.~/-]*")


def _result(hit: PageHit, base_url: str) -> dict[str, Any]:
    # What View.app_url(hit.path) gives.
    page_url = base_url + (hit.path if _UNQUOTED.fullmatch(hit.path) else quote(hit.path))
    sections = []
    for section in hit.sections:
        fragment = f"#{section.anchor}" if section.anchor else ""
        sections.append({"id": section.anchor or hit.id, "title": section.title or hit.title,
                         "path": hit.path + fragment, "body": section.body,
                         "urls": {"app": page_url + fragment}})
    return {"id": hit.id, "title": hit.title, "path": hit.path, "sections": sections,
            "urls": {"app": page_url}}


def _page(hits: Listing[PageHit], base_url: str) -> dict[str, Any]:
    """A page of a space search's results, keyed in `SearchPageResultList`'s field order (`next` left out
    when there is no next page, as the model leaves it out)."""
    page: dict[str, Any] = {"next": {"page": hits.next_cursor}} if hits.next_cursor else {}
    page["count"] = hits.count
    page["items"] = [_result(hit, base_url) for hit in hits.items]
    return page


def _ascii(hits: Listing[PageHit], base_url: str) -> bool:
    """Whether every string `_page` writes is ASCII: those of the hits, the base URL and the cursor (a
    page's URL is the base URL and its path, quoted when not ASCII). One `isascii` of them joined: a
    call per string costs half as much again."""
    texts = [base_url, hits.next_cursor or ""]
    for hit in hits.items:
        texts += (hit.id, hit.title, hit.path)
        for section in hit.sections:
            texts += (section.title, section.body, section.anchor or "")
    return "".join(texts).isascii()


def _base_url(space_id: str, revision_id: str) -> str:
    return View(space_id, revision_id, current=True).app_url()


def hits_to_wire(hits: Listing[PageHit], *, space_id: str, revision_id: str) -> SearchPageResultList:
    """A page of a space search's results, validated (what `hits_to_json` writes)."""
    return SearchPageResultList.model_validate(_page(hits, _base_url(space_id, revision_id)))


def json_text(value: dict[str, Any], *, ascii_only: bool = False) -> str:
    """`value` (JSON types only) as the resolver writes a body, `json.dumps` with compact separators:
    ASCII only, every other character escaped. pydantic's `ensure_ascii` escapes as `json.dumps` does
    except DEL, which it leaves raw (outside strings JSON has no DEL to escape); a lone surrogate, which
    a stored text may hold and pydantic cannot encode, is written by `json.dumps` itself. `ascii_only`:
    the caller knows every string of `value` is ASCII, so there is nothing for `ensure_ascii` to escape
    (pydantic escapes ASCII alike either way), and it is skipped: 40% of a 36 KB page of results."""
    try:
        body = to_json(value, ensure_ascii=not ascii_only).decode()
    except PydanticSerializationError:
        return json.dumps(value, separators=(",", ":"))
    return body.replace("\x7f", "\\u007f") if "\x7f" in body else body


def hits_to_json(hits: Listing[PageHit], *, space_id: str, revision_id: str) -> str:
    """A page of a space search's results, as the response's JSON body."""
    base_url = _base_url(space_id, revision_id)
    return json_text(_page(hits, base_url), ascii_only=_ascii(hits, base_url))


def space_hits_to_wire(space_id: str, title: str, *, revision_id: str,
                       hits: list[PageHit]) -> SearchSpaceResult:
    base_url = _base_url(space_id, revision_id)
    return SearchSpaceResult.model_validate({"id": space_id, "title": title,
                                             "pages": [_result(hit, base_url) for hit in hits]})
