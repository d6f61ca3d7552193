"""Link checks (`GET /spaces/{spaceId}/links`, `…/content/page/{pageId}/links`) and file backlinks
(`…/content/files/{fileId}/backlinks`), from the revision's link report (content.links).

Each read: the caller's access to the space (any role reads), the revision (cached), its tree (cached),
the report pointer (GetItem) and the report blob (GetItem, cached), the organization (GetItem) for the
locations' `organization`. A report missing (queue lag, no queue) is built in the request and stored.

Every function takes an explicit `revision_id` (None: the space's current revision), so the change
request routes call them with the change request's revision and `base_revision_id` (the revision the
change request started from) for `stats.broken.changeRequest`: the broken targets the change request's
revision has and its base has not.

Listings page by offset within the report; the cursor pins the revision the first page read. Results are
typed: the places and targets resolved in the revision's tree (bindery.engines.content.locations), with the
organization, the space and the caller's roles on them; bindery.api.wire.links shapes them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import ContentAccess, space_access
from bindery.engines.content.links import broken_targets
from bindery.engines.content.locations import Location, Usage, place, usage
from bindery.engines.content.tree import Tree
from bindery.engines.search.indexing import ensure_report
from bindery.platform.errors import BadRequest, NotFound
from bindery.platform.pagination import Listing, decode_cursor, encode_cursor
from bindery.store import orgs as org_store
from bindery.store import revisions as revision_store
from bindery.store.orgs import Organization
from bindery.store.revisions import Revision
from bindery.store.spaces import Space

NO_REVISION = "No matching revision"
NO_PAGE = "No matching page"
NO_FILE = "No matching file"


@dataclass(frozen=True)
class Scene:
    """What every location embeds: the organization and the space, with the caller's roles on them, and
    the revision read (`current`: the space's current content)."""

    organization: Organization
    org_role: str | None
    space: Space
    space_role: str | None
    tree: Tree
    revision: Revision
    current: bool


@dataclass(frozen=True)
class LinkStats:
    """Over every link of the space or page, whatever the listing's `status` filter; `change_request`:
    the broken targets a change request's revision adds to its base (None: not a change request's)."""

    total: int
    broken: int
    change_request: int | None = None


@dataclass(frozen=True)
class Links:
    scene: Scene
    usages: Listing[Usage]
    stats: LinkStats


@dataclass(frozen=True)
class Backlinks:
    scene: Scene
    locations: Listing[Location]


def _open(caller: Caller, space_id: str, revision_id: str | None, *,
          current: bool) -> tuple[Scene, dict[str, Any]]:
    access: ContentAccess = space_access(caller, space_id)
    access.require("read", "read this space's content")
    space = access.node
    assert isinstance(space, Space)
    wanted = revision_id or space.revision
    revision = revision_store.get_revision(space_id, wanted) if wanted else None
    if revision is None:
        raise NotFound(NO_REVISION)
    org = org_store.get_org(space.org_id)
    if org is None:
        raise NotFound("No matching space")
    scene = Scene(org, access.member.role, space, access.role, revision_store.load_tree(revision), revision,
                  current)
    return scene, ensure_report(revision)


def _page_of(scene: Scene, entries: list[Any], scope: str, limit: int,
             page: str | None) -> tuple[list[Any], str | None]:
    start = decode_cursor(scope, page)
    offset = 0
    if start is not None:
        if not isinstance(start.get("o"), int):
            raise BadRequest("page: invalid page cursor")
        offset = start["o"]
    more = offset + limit < len(entries)
    cursor = encode_cursor(scope, {"r": scene.revision.id, "o": offset + limit}) if more else None
    return entries[offset:offset + limit], cursor


def _pinned(scope_base: str, page: str | None, revision_id: str | None) -> str | None:
    """The revision a cursor pinned (a listing of current content stays on the revision it started on)."""
    start = decode_cursor(scope_base, page)
    pinned = start.get("r") if start else None
    if start is not None and not isinstance(pinned, str):
        raise BadRequest("page: invalid page cursor")
    return pinned or revision_id


def _stats(targets: list[Mapping[str, Any]], base_broken: set[str] | None) -> LinkStats:
    broken = sum(1 for t in targets if t["status"] == "broken")
    if base_broken is None:
        return LinkStats(len(targets), broken)
    mine = broken_targets({"targets": targets})
    return LinkStats(len(targets), broken, len(mine - base_broken))


def list_links(caller: Caller, space_id: str, revision_id: str | None, *, page_id: str | None = None,
               status: str | None, limit: int, page: str | None,
               base_revision_id: str | None = None) -> Links:
    """`listSpaceLinks` (page_id None) or `listPageLinks*`: the spec's list of `ContentReferenceUsage`
    plus `stats` (over every link of the space or page, whatever the `status` filter)."""
    scope = f"links:{space_id}:{revision_id or ''}:{page_id or ''}:{status or ''}"
    scene, report = _open(caller, space_id, _pinned(scope, page, revision_id), current=revision_id is None)
    if page_id is not None and scene.tree.page(page_id) is None:
        raise NotFound(NO_PAGE)
    targets = [t for t in report["targets"]
               if page_id is None or any(location.get("page") == page_id for location in t["locations"])]
    base_broken = None
    if base_revision_id is not None:
        base = revision_store.get_revision(space_id, base_revision_id)
        base_broken = broken_targets(ensure_report(base)) if base is not None else set()
    selected = [t for t in targets if status is None or t["status"] == status]
    shown, cursor = _page_of(scene, selected, scope, limit, page)
    usages = Listing([usage(scene.tree, t, page_id) for t in shown], cursor, len(selected))
    return Links(scene, usages, _stats(targets, base_broken))


def list_file_backlinks(caller: Caller, space_id: str, revision_id: str | None, file_id: str, *, limit: int,
                        page: str | None) -> Backlinks:
    """`listSpaceFileBacklinks` / `listChangeRequestFileBacklinks`: one page location per page that
    references the file (links, images, file blocks, covers), in tree order, then one reusable-content
    location per reusable content that does."""
    scope = f"backlinks:{space_id}:{revision_id or ''}:{file_id}"
    scene, report = _open(caller, space_id, _pinned(scope, page, revision_id), current=revision_id is None)
    if scene.tree.file(file_id) is None:
        raise NotFound(NO_FILE)
    wanted = json.dumps({"kind": "file", "file": file_id}, sort_keys=True)
    places = list(dict.fromkeys(  # a page or reusable content once, however many of its nodes use the file
        json.dumps({name: value for name, value in location.items() if name != "node"}, sort_keys=True)
        for t in report["targets"] if json.dumps(t["ref"], sort_keys=True) == wanted
        for location in t["locations"]))
    shown, cursor = _page_of(scene, places, scope, limit, page)
    found = [located for where in shown if (located := place(scene.tree, json.loads(where))) is not None]
    return Backlinks(scene, Listing(found, cursor, len(places)))
