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
the model stays the route's declared response (the OpenAPI document). What a result writes besides its
sections' bodies is the same for every query that shows it: those parts are written once and kept
(`_result_parts`, `_section_parts`), so a warm page of results writes only its bodies and joins.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from pydantic_core import PydanticSerializationError, to_json

from bindery.api.responses.search import SearchPageResultList, SearchSpaceResult
from bindery.api.wire.content_views import View
from bindery.engines.search.query import PageHit, SectionHit
from bindery.platform.pagination import Listing

# What quote() leaves as it is (its always-safe characters and "/"): most paths, which are then not
# encoded and decoded again (a tenth of a page of results' shaping).
_UNQUOTED = re.compile(r"[A-Za-z0-9_.~/-]*")
# What JSON writes as it is inside a string: printable ASCII but the quote and the backslash.
_PLAIN = re.compile(r'[ !#-\[\]-~]*')
# A page of results shows at most 1,000 pages (MAX_LIMIT), three sections each.
_PAGES_KEPT, _SECTIONS_KEPT = 4096, 8192


def _page_url(hit: PageHit, base_url: str) -> str:
    # What View.app_url(hit.path) gives.
    return base_url + (hit.path if _UNQUOTED.fullmatch(hit.path) else quote(hit.path))


def _section(hit: PageHit, section: SectionHit, page_url: str) -> dict[str, Any]:
    fragment = f"#{section.anchor}" if section.anchor else ""
    return {"id": section.anchor or hit.id, "title": section.title or hit.title, "path": hit.path + fragment,
            "body": section.body, "urls": {"app": page_url + fragment}}


def _result(hit: PageHit, base_url: str) -> dict[str, Any]:
    page_url = _page_url(hit, base_url)
    return {"id": hit.id, "title": hit.title, "path": hit.path,
            "sections": [_section(hit, section, page_url) for section in hit.sections],
            "urls": {"app": page_url}}


def _page(hits: Listing[PageHit], base_url: str) -> dict[str, Any]:
    """A page of a space search's results, keyed in `SearchPageResultList`'s field order (`next` left out
    when there is no next page, as the model leaves it out)."""
    page: dict[str, Any] = {"next": {"page": hits.next_cursor}} if hits.next_cursor else {}
    page["count"] = hits.count
    page["items"] = [_result(hit, base_url) for hit in hits.items]
    return page


def _base_url(space_id: str, revision_id: str) -> str:
    return View(space_id, revision_id, current=True).app_url()


def hits_to_wire(hits: Listing[PageHit], *, space_id: str, revision_id: str) -> SearchPageResultList:
    """A page of a space search's results, validated (what `hits_to_json` writes)."""
    return SearchPageResultList.model_validate(_page(hits, _base_url(space_id, revision_id)))


def json_text(value: dict[str, Any] | str) -> str:
    """`value` (JSON types only) as the resolver writes a body, `json.dumps` with compact separators:
    ASCII only, every other character escaped. pydantic's `ensure_ascii` escapes as `json.dumps` does
    except DEL, which it leaves raw (outside strings JSON has no DEL to escape); a lone surrogate, which
    a stored text may hold and pydantic cannot encode, is written by `json.dumps` itself. The body is
    written without `ensure_ascii` first (pydantic escapes ASCII alike either way): when what comes out
    is ASCII, no string had anything for it to escape, and it is the answer (a 36 KB page of results
    costs 40% more with it, and asking each string beforehand whether it is ASCII a fifth more); when
    not, the body is written again with it."""
    try:
        raw = to_json(value)
        body = (raw if raw.isascii() else to_json(value, ensure_ascii=True)).decode()
    except PydanticSerializationError:
        return json.dumps(value, separators=(",", ":"))
    return body.replace("\x7f", "\\u007f") if "\x7f" in body else body


# A result's JSON is the same bytes for every query but its sections' bodies (JSON is written a value at a
# time): the parts around them are written once per page, or section, shown and kept, keyed by everything
# they are made of (so never stale, whichever index or space shows them).
@lru_cache(maxsize=_PAGES_KEPT)
def _result_parts(base_url: str, page_id: str, title: str, path: str) -> tuple[str, str]:
    """A result's JSON before its sections and after them ."""
    whole = json_text(_result(PageHit(page_id, title, path, []), base_url))
    # A quote inside a string is written \", so the key is found where it is written, not in a value.
    cut = whole.index('"sections":[') + len('"sections":[')
    return whole[:cut], whole[cut:]


@lru_cache(maxsize=_SECTIONS_KEPT)
def _section_parts(page: tuple[str, str, str, str], anchor: str | None, heading: str) -> tuple[str, str]:
    """A section's JSON before its body and after it; `page`: its result's base URL, id, title, path."""
    base_url, page_id, title, path = page
    hit = PageHit(page_id, title, path, [])
    whole = json_text(_section(hit, SectionHit(anchor, heading, ""), _page_url(hit, base_url)))
    cut = whole.index('"body":""') + len('"body":')
    return whole[:cut], whole[cut + 2:]


def _string(text: str) -> str:
    """`text` as `json_text` writes it."""
    return f'"{text}"' if _PLAIN.fullmatch(text) else json_text(text)


def hits_to_json(hits: Listing[PageHit], *, space_id: str, revision_id: str) -> str:
    """A page of a space search's results, as the response's JSON body: `json_text` of `_page`, written
    from each result's parts (`_result_parts`, `_section_parts`) and its sections' bodies."""
    base_url = _base_url(space_id, revision_id)
    items = []
    for hit in hits.items:
        page = (base_url, hit.id, hit.title, hit.path)
        head, tail = _result_parts(*page)
        sections = []
        for section in hit.sections:
            before, after = _section_parts(page, section.anchor, section.title)
            sections.append(before + _string(section.body) + after)
        items.append(head + ",".join(sections) + tail)
    cursor = f'"next":{{"page":{_string(hits.next_cursor)}}},' if hits.next_cursor else ""
    return "{" + cursor + f'"count":{int(hits.count)},"items":[' + ",".join(items) + "]}"


def space_hits_to_wire(space_id: str, title: str, *, revision_id: str,
                       hits: list[PageHit]) -> SearchSpaceResult:
    base_url = _base_url(space_id, revision_id)
    return SearchSpaceResult.model_validate({"id": space_id, "title": title,
                                             "pages": [_result(hit, base_url) for hit in hits]})
