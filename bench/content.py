"""Content operations for the micro-benchmark: a space of 5,000 pages (50 groups of 100 document pages,
each with a small document), committed with the same primitives imports and change requests use, then
read through the API as a client would."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bindery.domain.revisions import advance_space, commit_revision
from bindery.store import spaces as space_store
from tests.client import ApiClient, Identity

GROUPS, PAGES_PER_GROUP = 50, 100


@dataclass(frozen=True)
class ContentFixture:
    space_id: str
    page_id: str
    page_path: str
    pages: int


def _text(value: str) -> dict[str, Any]:
    return {"object": "text", "leaves": [{"object": "leaf", "text": value, "marks": []}]}


def _document(number: int) -> dict[str, Any]:
    words = f"Page {number} explains one step of the installation, with a link and some code."
    return {"object": "document", "data": {}, "nodes": [
        {"object": "block", "type": "heading-1", "key": f"h{number}", "nodes": [_text(f"Step {number}")]},
        {"object": "block", "type": "paragraph", "key": f"p{number}", "nodes": [_text(words)]},
    ]}


def seed_content(api: ApiClient, who: Identity, org_id: str) -> ContentFixture:
    reply = api.post(f"/orgs/{org_id}/spaces", body={"title": "Bench handbook"}, token=who.token)
    if reply.status != 201:
        raise RuntimeError(f"creating the space answered {reply.status}: {reply.body[:200]!r}")
    return commit_handbook(reply.json()["id"])


def commit_handbook(space_id: str, groups: int = GROUPS, pages_per_group: int = PAGES_PER_GROUP
                    ) -> ContentFixture:
    """Commit `groups` x `pages_per_group` document pages to the (empty) space and move it there: one
    revision, as an import would write it. The fixture names a page in the middle."""
    tree, documents = [], {}
    for g in range(groups):
        children = []
        for p in range(pages_per_group):
            number = g * pages_per_group + p
            page_id = f"page{number:05d}"
            children.append({"id": page_id, "type": "document", "title": f"Step {number}",
                             "slug": f"step-{number}", "pages": []})
            documents[page_id] = _document(number)
        tree.append({"id": f"group{g:03d}", "type": "group", "title": f"Part {g}", "slug": f"part-{g}",
                     "pages": children})
    value = {"pages": tree, "files": [], "reusableContents": [], "variables": {}}
    space = space_store.get_space(space_id)
    if space is None:
        raise RuntimeError("the space just created is missing")
    revision = commit_revision(space_id, [space.revision], value, documents)
    advance_space(space, space.revision, revision)
    middle = groups * pages_per_group // 2 + pages_per_group // 2
    return ContentFixture(space_id, f"page{middle:05d}", f"part-{groups // 2}/step-{middle}",
                          groups * pages_per_group)


def content_operations(fixture: ContentFixture,
                       api_call: Callable[[str], Callable[[], Any]]) -> list[tuple[str, Callable[[], Any]]]:
    base = f"/spaces/{fixture.space_id}/content"
    return [
        ("GET /spaces/{spaceId}/content/page/{pageId}", api_call(f"{base}/page/{fixture.page_id}")),
        ("GET /spaces/{spaceId}/content/path/{pagePath}", api_call(f"{base}/path/{fixture.page_path}")),
        ("GET …/content/page/{pageId}?format=markdown",
         api_call(f"{base}/page/{fixture.page_id}?format=markdown")),
        (f"GET /spaces/{{spaceId}}/content/pages ({fixture.pages} pages)", api_call(f"{base}/pages")),
    ]
