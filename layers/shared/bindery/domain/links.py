"""Link checks (`GET /spaces/{spaceId}/links`, `…/content/page/{pageId}/links`) and file backlinks
(`…/content/files/{fileId}/backlinks`), from the revision's link report (content.links).

Each read: the caller's access to the space (any role reads), the revision (cached), its tree (cached),
the report pointer (GetItem) and the report blob (GetItem, cached), the organization (GetItem) for the
locations' `organization`. A report missing (queue lag, no queue) is built in the request and stored.

Every function takes an explicit `revision_id` (None: the space's current revision), so the change
request routes call them with the change request's revision, its `versionContext` (the spec's
`ContentLocationChangeRequestContext`) and `base_revision_id` (the revision the change request started
from) for `stats.broken.changeRequest`: the broken targets the change request's revision has and its
base has not.

Listings page by offset within the report; the cursor pins the revision the first page read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.api.wire.content import View, file_to_wire, page_to_wire, reusable_content_to_wire
from bindery.api.wire.organizations import org_to_wire
from bindery.api.wire.spaces import space_to_wire
from bindery.auth import Caller
from bindery.content.links import broken_targets
from bindery.content.tree import Tree
from bindery.domain.access.content import ContentAccess, space_access
from bindery.errors import BadRequest, NotFound
from bindery.pagination import decode_cursor, encode_cursor
from bindery.search.indexing import ensure_report
from bindery.store import orgs as org_store
from bindery.store import revisions as revision_store
from bindery.store.revisions import Revision
from bindery.store.spaces import Space

NO_REVISION = "No matching revision"
NO_PAGE = "No matching page"
NO_FILE = "No matching file"


@dataclass(frozen=True)
class Scene:
    """What every location embeds: the organization, the space, the revision's tree and how it is shown."""

    organization: dict[str, Any]
    space: dict[str, Any]
    tree: Tree
    view: View
    revision: Revision
    version_context: Mapping[str, Any] | None

    def base(self, kind: str) -> dict[str, Any]:
        out = {"kind": kind, "organization": self.organization, "space": self.space}
        if self.version_context is not None:
            out["versionContext"] = dict(self.version_context)
        return out

    def page(self, page_id: str, internal: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """A `ContentLocationPage` (the page without its children: a location names one page)."""
        located = self.tree.page(page_id)
        if located is None:
            return None
        entry = {**located.entry, "pages": []}
        out = {**self.base("page"), "page": page_to_wire(self.view, entry, located.path)}
        if internal:
            out["internalLocation"] = dict(internal)
        return out

    def content(self, content_id: str, internal: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """A `ContentLocationReusableContent` (the spec's location has no node: `internal` is dropped)."""
        del internal
        content = self.tree.reusable_content(content_id)
        if content is None:
            return None
        return {**self.base("reusable-content"),
                "reusableContent": reusable_content_to_wire(self.view, content)}

    def location(self, where: Mapping[str, Any]) -> dict[str, Any] | None:
        """Where a report found a reference: a page (with the node holding it) or a reusable content."""
        internal = {"type": "node", "node": where["node"]} if where.get("node") else None
        if "reusableContent" in where:
            return self.content(where["reusableContent"], internal)
        return self.page(where["page"], internal)

    def target(self, ref: Mapping[str, Any]) -> dict[str, Any] | None:  # noqa: PLR0911 (one per kind)
        """The target as a `ContentLocation`, where the revision has it; None for a missing page or file
        and for targets outside the space, which Bindery does not look up."""
        kind = ref["kind"]
        if kind == "url":
            return {"kind": "url", "url": ref["url"]}
        if "space" in ref:
            return None
        if kind == "page":
            return self.page(ref["page"])
        if kind == "anchor" and "page" in ref:  # without: relative to a reusable content's host page
            return self.page(ref["page"], {"type": "anchor", "anchor": ref["anchor"]})
        if kind == "file" and (entry := self.tree.file(ref["file"])) is not None:
            return {**self.base("file"), "file": file_to_wire(self.view, entry)}
        if kind == "reusable-content":
            return self.content(ref["reusableContent"])
        return None


def _open(caller: Caller, space_id: str, revision_id: str | None, version_context: Mapping[str, Any] | None,
          *, current: bool) -> tuple[Scene, dict[str, Any]]:
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
    scene = Scene(org_to_wire(org, access.member.role), space_to_wire(space, access.role),
                  revision_store.load_tree(revision), View(space_id, revision.id, current),
                  revision, version_context)
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


def _stats(targets: list[Mapping[str, Any]], base_broken: set[str] | None) -> dict[str, Any]:
    broken: dict[str, Any] = {"total": sum(1 for t in targets if t["status"] == "broken")}
    if base_broken is not None:
        mine = broken_targets({"targets": targets})
        broken["changeRequest"] = len(mine - base_broken)
    return {"total": len(targets), "broken": broken}


def _usage(scene: Scene, target: Mapping[str, Any], page_id: str | None) -> dict[str, Any]:
    locations = []
    for location in target["locations"]:
        if page_id is None or location.get("page") == page_id:
            found = scene.location(location)
            if found is not None:
                locations.append(found)
    out: dict[str, Any] = {"status": target["status"], "relation": target["relation"],
                           "locationReferences": locations}
    if (reference := scene.target(target["ref"])) is not None:
        out["targetReference"] = reference
    return out


def list_links(caller: Caller, space_id: str, revision_id: str | None, *, page_id: str | None = None,
               status: str | None, limit: int, page: str | None,
               version_context: Mapping[str, Any] | None = None,
               base_revision_id: str | None = None) -> dict[str, Any]:
    """`listSpaceLinks` (page_id None) or `listPageLinks*`: the spec's list of `ContentReferenceUsage`
    plus `stats` (over every link of the space or page, whatever the `status` filter)."""
    scope = f"links:{space_id}:{revision_id or ''}:{page_id or ''}:{status or ''}"
    scene, report = _open(caller, space_id, _pinned(scope, page, revision_id), version_context,
                           current=revision_id is None)
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
    body: dict[str, Any] = {"items": [_usage(scene, t, page_id) for t in shown], "count": len(selected),
                            "stats": _stats(targets, base_broken)}
    if cursor:
        body["next"] = {"page": cursor}
    return body


def list_file_backlinks(caller: Caller, space_id: str, revision_id: str | None, file_id: str, *, limit: int,
                        page: str | None, version_context: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`listSpaceFileBacklinks` / `listChangeRequestFileBacklinks`: one `ContentLocationPage` per page that
    references the file (links, images, file blocks, covers), in tree order, then one
    `ContentLocationReusableContent` per reusable content that does."""
    scope = f"backlinks:{space_id}:{revision_id or ''}:{file_id}"
    scene, report = _open(caller, space_id, _pinned(scope, page, revision_id), version_context,
                           current=revision_id is None)
    if scene.tree.file(file_id) is None:
        raise NotFound(NO_FILE)
    wanted = json.dumps({"kind": "file", "file": file_id}, sort_keys=True)
    places = list(dict.fromkeys(  # a page or reusable content once, however many of its nodes use the file
        json.dumps({name: value for name, value in location.items() if name != "node"}, sort_keys=True)
        for t in report["targets"] if json.dumps(t["ref"], sort_keys=True) == wanted
        for location in t["locations"]))
    shown, cursor = _page_of(scene, places, scope, limit, page)
    body: dict[str, Any] = {"items": [location for place in shown
                                      if (location := scene.location(json.loads(place))) is not None],
                            "count": len(places)}
    if cursor:
        body["next"] = {"page": cursor}
    return body
