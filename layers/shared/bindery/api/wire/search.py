"""Search results on the wire: the spec's `SearchPageResult` (with its `SearchSectionResult`s), and an
organization search's `SearchSpaceResult` (a space's best pages). Results link to the space's current
content in the app (a search reads the current revision)."""

from __future__ import annotations

from bindery.api.wire.content import View
from bindery.api.wire.models.search import SearchPageResult, SearchSpaceResult
from bindery.search.query import PageHit


def hit_to_wire(hit: PageHit, *, space_id: str, revision_id: str) -> SearchPageResult:
    view = View(space_id, revision_id, current=True)
    sections = []
    for section in hit.sections:
        fragment = f"#{section.anchor}" if section.anchor else ""
        sections.append({"id": section.anchor or hit.id, "title": section.title or hit.title,
                         "path": hit.path + fragment, "body": section.body,
                         "urls": {"app": view.app_url(hit.path) + fragment}})
    return SearchPageResult.model_validate({"id": hit.id, "title": hit.title, "path": hit.path,
                                            "sections": sections, "urls": {"app": view.app_url(hit.path)}})


def space_hits_to_wire(space_id: str, title: str, *, revision_id: str,
                       hits: list[PageHit]) -> SearchSpaceResult:
    pages = [hit_to_wire(hit, space_id=space_id, revision_id=revision_id) for hit in hits]
    return SearchSpaceResult(id=space_id, title=title, pages=pages)
