"""Link checks and backlinks on the wire: the spec's `ContentReferenceUsage` list (with `stats`) and
`ContentLocation` list, from the places and targets the domain resolved (bindery.content.locations).

Every location embeds the organization and the space (as the caller sees them) and, on a change
request's revision, the `versionContext` naming it; a page location is the page without its children.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.api.wire.content import View, file_fields, page_fields, reusable_content_fields
from bindery.api.wire.models.change_requests import ChangeRequest
from bindery.api.wire.models.content import ContentLocationList, ContentReferenceUsageList
from bindery.api.wire.organizations import org_to_wire
from bindery.api.wire.spaces import space_to_wire
from bindery.content.locations import FileAt, Location, PageAt, ReusableContentAt, UrlAt, Usage
from bindery.pagination import Listing
from bindery.store.orgs import Organization
from bindery.store.spaces import Space


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
    return Where(org_to_wire(org, org_role), space_to_wire(space, space_role),
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
