"""Search results on the wire: the spec's `SearchPageResult` (with its `SearchSectionResult`s), and an
organization search's `SearchSpaceResult` (a space's best pages). Results link to the space's current
content in the app (a search reads the current revision).

A page of results is validated as one model (a page holds up to 1,000 results: one pydantic call, not
one per result), and each result's app URL is made once for the page and its sections, from the view's
base URL made once for all of them."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

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


def hits_to_wire(hits: Listing[PageHit], *, space_id: str, revision_id: str) -> SearchPageResultList:
    """A page of a space search's results."""
    base_url = View(space_id, revision_id, current=True).app_url()
    return SearchPageResultList.model_validate(hits.map(lambda hit: _result(hit, base_url)).to_wire())


def space_hits_to_wire(space_id: str, title: str, *, revision_id: str,
                       hits: list[PageHit]) -> SearchSpaceResult:
    base_url = View(space_id, revision_id, current=True).app_url()
    return SearchSpaceResult.model_validate({"id": space_id, "title": title,
                                             "pages": [_result(hit, base_url) for hit in hits]})
