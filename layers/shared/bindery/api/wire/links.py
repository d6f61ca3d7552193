"""Link checks and backlinks on the wire: the spec's `ContentReferenceUsage` list (with `stats`) and
`ContentLocation` list, from the places and targets the domain resolved (bindery.engines.content.locations).

Every location embeds the organization and the space (as the caller sees them) and, on a change
request's revision, the `versionContext` naming it; a page location is the page without its children.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bindery.api.responses.change_requests import ChangeRequest
from bindery.api.responses.content_locations import ContentLocationList, ContentReferenceUsageList
from bindery.api.wire.content import file_fields, page_fields, reusable_content_fields
from bindery.api.wire.content_views import View
from bindery.api.wire.organizations import org_fields
from bindery.api.wire.spaces import space_fields
from bindery.engines.content.locations import FileAt, Location, PageAt, ReusableContentAt, UrlAt, Usage
from bindery.platform.pagination import Listing
from bindery.store.orgs import Organization
from bindery.store.revisions import Revision
from bindery.store.spaces import Space


class SceneShown(Protocol):
    """Where links were read, as the caller sees it: what bindery.domain.links.Scene holds."""

    @property
    def organization(self) -> Organization: ...
    @property
    def org_role(self) -> str | None: ...
    @property
    def space(self) -> Space: ...
    @property
    def space_role(self) -> str | None: ...
    @property
    def revision(self) -> Revision: ...
    @property
    def current(self) -> bool: ...


class StatsShown(Protocol):
    """bindery.domain.links.LinkStats: over every link, whatever the listing's `status` filter."""

    @property
    def total(self) -> int: ...
    @property
    def broken(self) -> int: ...
    @property
    def change_request(self) -> int | None: ...  # the broken targets a change request adds to its base


class LinksShown(Protocol):
    """A page of link checks: what bindery.domain.links.Links holds."""

    @property
    def scene(self) -> SceneShown: ...
    @property
    def usages(self) -> Listing[Usage]: ...
    @property
    def stats(self) -> StatsShown: ...


class BacklinksShown(Protocol):
    """A page of backlinks: what bindery.domain.links.Backlinks holds."""

    @property
    def scene(self) -> SceneShown: ...
    @property
    def locations(self) -> Listing[Location]: ...


@dataclass(frozen=True)
class Where:
    """What every location embeds, and how the revision's content is shown."""

    organization: Any
    space: Any
    view: View
    change_request: ChangeRequest | None

    def base(self, kind: str) -> dict[str, Any]:
        out = {"kind": kind, "organization": self.organization, "space": self.space}
        if self.change_request is not None:
            out["versionContext"] = {"type": "changeRequest", "changeRequest": self.change_request}
        return out


def where(org: Organization, org_role: str | None, space: Space, space_role: str | None, *, revision_id: str,
          current: bool, change_request: ChangeRequest | None = None) -> Where:
    return Where(org_fields(org, org_role), space_fields(space, space_role),
                 View(space.id, revision_id, current), change_request)


def location_fields(at: Where, location: Location) -> dict[str, Any]:
    if isinstance(location, UrlAt):
        return {"kind": "url", "url": location.url}
    if isinstance(location, FileAt):
        return {**at.base("file"), "file": file_fields(at.view, location.entry)}
    if isinstance(location, ReusableContentAt):
        content = reusable_content_fields(at.view, location.entry)
        return {**at.base("reusable-content"), "reusableContent": content}
    assert isinstance(location, PageAt)
    entry = {**location.located.entry, "pages": []}  # a location names one page
    out = {**at.base("page"), "page": page_fields(at.view, entry, location.located.path)}
    if location.internal:
        out["internalLocation"] = dict(location.internal)
    return out


def _usage(at: Where, usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {"status": usage.status, "relation": usage.relation,
                           "locationReferences": [location_fields(at, found) for found in usage.locations]}
    if usage.target is not None:
        out["targetReference"] = location_fields(at, usage.target)
    return out


def usages_to_wire(at: Where, usages: Listing[Usage], *, total: int, broken: int,
                   broken_by_change_request: int | None) -> ContentReferenceUsageList:
    """`stats` count every link of the space or page, whatever the listing's `status` filter;
    `broken_by_change_request`: the broken targets a change request adds to its base."""
    stats: dict[str, Any] = {"total": total, "broken": {"total": broken}}
    if broken_by_change_request is not None:
        stats["broken"]["changeRequest"] = broken_by_change_request
    body = usages.map(lambda usage: _usage(at, usage)).to_wire()
    return ContentReferenceUsageList.model_validate({**body, "stats": stats}, context=at.view.stored())


def locations_to_wire(at: Where, locations: Listing[Location]) -> ContentLocationList:
    shaped = locations.map(lambda found: location_fields(at, found))
    return ContentLocationList.model_validate(shaped.to_wire(), context=at.view.stored())


def _where_of(scene: SceneShown, change_request: ChangeRequest | None) -> Where:
    return where(scene.organization, scene.org_role, scene.space, scene.space_role,
                 revision_id=scene.revision.id, current=scene.current, change_request=change_request)


def links_to_wire(found: LinksShown,
                  change_request: ChangeRequest | None = None) -> ContentReferenceUsageList:
    """`change_request`: the change request whose revision was read (each location names it)."""
    stats = found.stats
    return usages_to_wire(_where_of(found.scene, change_request), found.usages, total=stats.total,
                          broken=stats.broken, broken_by_change_request=stats.change_request)


def backlinks_to_wire(found: BacklinksShown,
                      change_request: ChangeRequest | None = None) -> ContentLocationList:
    return locations_to_wire(_where_of(found.scene, change_request), found.locations)
