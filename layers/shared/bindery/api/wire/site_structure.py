"""A site's structure on the wire (bindery.api.responses.sites and .site_sections): its site spaces, its
sections and their groups, each shown from what the domain found of it (bindery.domain.sites.views, which
this module reads through the protocols below: api.wire imports no domain)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bindery.api.responses.site_sections import SiteSection, SiteSectionGroup
from bindery.api.responses.sites import SiteSpace as WireSiteSpace
from bindery.api.wire.sites import published_at
from bindery.api.wire.spaces import space_fields
from bindery.store.orgs import Organization
from bindery.store.site_sections import Section, SectionGroup
from bindery.store.site_spaces import SiteSpace
from bindery.store.sites import Site
from bindery.store.spaces import Space


class SiteSpaceShown(Protocol):
    """A site space as its reader sees it: what bindery.domain.sites.views.SiteSpaceView holds."""

    @property
    def site_space(self) -> SiteSpace: ...
    @property
    def space(self) -> Space: ...
    @property
    def role(self) -> str | None: ...
    @property
    def site(self) -> Site: ...
    @property
    def org(self) -> Organization: ...
    @property
    def default(self) -> bool: ...
    @property
    def published_path(self) -> str: ...


@runtime_checkable
class SectionShown(Protocol):
    """A section and its readable site spaces: what bindery.domain.sites.views.SectionView holds."""

    @property
    def section(self) -> Section: ...
    @property
    def site(self) -> Site: ...
    @property
    def org(self) -> Organization: ...
    @property
    def default(self) -> bool: ...
    @property
    def published_path(self) -> str: ...
    @property
    def site_spaces(self) -> list[Any]: ...  # SiteSpaceShown each (a property's list is invariant)


class GroupShown(Protocol):
    """A section group and what sits under it: what bindery.domain.sites.views.GroupView holds."""

    @property
    def group(self) -> SectionGroup: ...
    @property
    def children(self) -> list[Any]: ...  # SectionShown or GroupShown each, in order

    def sections(self) -> list[Any]: ...  # SectionShown each: every section under the group


# What a reader with no role on the space (a visitor of a published site) is not shown of it: where it
# sits among the organization's collections, and its Git Sync and visitor-authentication settings.
HIDDEN_FROM_VISITORS = ("parent", "gitSync", "visitorAuth")
# What the spec requires of a space but a visitor is not told (issue 39): how its work goes (comments and
# change requests counted) and which revision is current, which published content does not need (the
# site's pages are read from the site, never through the space). Neutral values: docs/decisions.md.
WITHHELD_FROM_VISITORS = {"comments": 0, "changeRequests": 0, "changeRequestsOpen": 0,
                          "changeRequestsDraft": 0, "revision": ""}


def _space_as_seen(space: Space, role: str | None) -> dict[str, Any]:
    body = space_fields(space, role)
    if role is None:
        for key in HIDDEN_FROM_VISITORS:
            body.pop(key, None)
        body.update(WITHHELD_FROM_VISITORS)
    return body


def site_space_to_wire(view: SiteSpaceShown) -> WireSiteSpace:
    site_space = view.site_space
    body: dict[str, Any] = {
        "object": "site-space", "id": site_space.id, "path": site_space.path,
        "space": _space_as_seen(view.space, view.role), "title": view.space.title, "default": view.default,
        "hasAdvancedCustomizationFeature": False,
        "urls": published_at(view.site, view.org, view.published_path),
    }
    if site_space.section:
        body["section"] = site_space.section
    if site_space.condition:
        body["condition"] = site_space.condition
    return WireSiteSpace.model_validate(body)


def section_to_wire(view: SectionShown) -> SiteSection:
    section = view.section
    body: dict[str, Any] = {
        "object": "site-section", "id": section.id, "title": section.title, "default": view.default,
        "path": section.path, "siteSpaces": [site_space_to_wire(shown) for shown in view.site_spaces],
        "urls": published_at(view.site, view.org, view.published_path),
    }
    for name, value in (("description", section.description), ("condition", section.condition),
                        ("sectionGroup", section.group), ("icon", section.icon)):
        if value is not None:
            body[name] = value
    return SiteSection.model_validate(body)


def section_group_to_wire(view: GroupShown) -> SiteSectionGroup:
    """`children`: the sections and groups right under the group; `sections` (deprecated by the spec):
    every section under it."""
    group = view.group
    body: dict[str, Any] = {"object": "site-section-group", "id": group.id, "title": group.title,
                            "sections": [section_to_wire(shown) for shown in view.sections()],
                            "children": [structure_entry_to_wire(child) for child in view.children]}
    if group.parent is not None:
        body["sectionGroup"] = group.parent
    if group.icon is not None:
        body["icon"] = group.icon
    return SiteSectionGroup.model_validate(body)


def structure_entry_to_wire(view: SectionShown | GroupShown) -> SiteSection | SiteSectionGroup:
    if isinstance(view, SectionShown):
        return section_to_wire(view)
    return section_group_to_wire(view)
