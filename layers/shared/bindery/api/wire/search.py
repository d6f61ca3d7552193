"""Search results on the wire: the spec's `SearchPageResult` (with its `SearchSectionResult`s), and an
organization search's `SearchSpaceResult` (a space's best pages). Results link to the space's current
content in the app (a search reads the current revision).

A page of results is validated as one model (a page holds up to 1,000 results: one pydantic call, not
one per result), and each result's app URL is made once for the page and its sections, from the view's
base URL made once for all of them.

A space search's page of results is serialized here, once (`hits_to_json`), rather than by Powertools:
its response validation would serialize the model to Python objects (`dump_python`) and the resolver
those to JSON (`json.dumps`), two passes over up to 1,000 results where pydantic writes the JSON in
one (bench/README.md, "Search"). The bytes are those Powertools writes (`json_body` says how).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from bindery.api.responses.search import SearchPageResultList, SearchSpaceResult
from bindery.api.wire.content import View
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


def json_body(model: BaseModel) -> str:
    """`model` as the JSON Powertools answers a returned model with (`dump_python(mode="json")`, then
    `json.dumps` with compact separators: ASCII only, every other character escaped), in one pass.
    pydantic's `ensure_ascii` escapes as `json.dumps` does except DEL, which it leaves raw (outside
    strings JSON has no DEL to escape); a lone surrogate, which a stored text may hold and pydantic
    cannot encode, takes Powertools' own two passes."""
    try:
        body = model.model_dump_json(ensure_ascii=True)
    except PydanticSerializationError:
        return json.dumps(model.model_dump(mode="json"), separators=(",", ":"))
    return body.replace("\x7f", "\\u007f") if "\x7f" in body else body


def hits_to_json(hits: Listing[PageHit], *, space_id: str, revision_id: str) -> str:
    """A page of a space search's results, as the response's JSON body."""
    return json_body(hits_to_wire(hits, space_id=space_id, revision_id=revision_id))


def space_hits_to_wire(space_id: str, title: str, *, revision_id: str,
                       hits: list[PageHit]) -> SearchSpaceResult:
    base_url = View(space_id, revision_id, current=True).app_url()
    return SearchSpaceResult.model_validate({"id": space_id, "title": title,
                                             "pages": [_result(hit, base_url) for hit in hits]})
