"""A site's whole structure (its site spaces, sections, groups, customization, share links and
publishing auth), read with one Query of the site's partition (docs/sites.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery.keys import sites as site_keys
from bindery.store import table
from bindery.store.site_sections import Section, SectionGroup
from bindery.store.site_settings import PublishingAuth, ShareLink, customization_of
from bindery.store.site_spaces import SiteSpace
from bindery.store.sites import Site


@dataclass
class Structure:
    """Everything a site is made of, from one Query of its partition."""

    site: Site
    site_spaces: list[SiteSpace] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    groups: list[SectionGroup] = field(default_factory=list)
    customization: dict[str, Any] | None = None  # the site's, when it was ever set
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)  # by site space
    share_links: list[ShareLink] = field(default_factory=list)
    publishing_auth: PublishingAuth | None = None  # set once an admin first read or changed it

    def ordered(self) -> list[SiteSpace]:
        return sorted(self.site_spaces, key=lambda ss: (ss.position, ss.id))

    def site_space(self, site_space_id: str) -> SiteSpace | None:
        return next((ss for ss in self.site_spaces if ss.id == site_space_id), None)

    def section(self, section_id: str) -> Section | None:
        return next((section for section in self.sections if section.id == section_id), None)

    def group(self, group_id: str) -> SectionGroup | None:
        return next((group for group in self.groups if group.id == group_id), None)

    def ordered_sections(self) -> list[Section]:
        return sorted(self.sections, key=lambda section: (section.position, section.id))

    def in_section(self, section_id: str | None) -> list[SiteSpace]:
        """The site spaces of a section (None: of the site's root), in order."""
        return [ss for ss in self.ordered() if ss.section == section_id]

    def default_section(self) -> Section | None:
        """The chosen default section while it exists, else the first one: a site with sections always
        has exactly one default."""
        ordered = self.ordered_sections()
        chosen = self.section(self.site.default_section) if self.site.default_section else None
        return chosen or (ordered[0] if ordered else None)

    def default_site_space(self, section_id: str | None) -> SiteSpace | None:
        """The default site space of a section (None: of the root), chosen or else the first."""
        siblings = self.in_section(section_id)
        section = self.section(section_id) if section_id else None
        chosen_id = section.default_site_space if section else self.site.default_site_space
        chosen = next((ss for ss in siblings if ss.id == chosen_id), None)
        return chosen or (siblings[0] if siblings else None)


def structure(site_id: str) -> Structure | None:
    """The site with all its site spaces, sections, groups, customization, share links and publishing
    auth: one Query of the site's partition (paged past 1 MB)."""
    site: Site | None = None
    site_spaces: list[SiteSpace] = []
    sections: list[Section] = []
    groups: list[SectionGroup] = []
    customization: dict[str, Any] | None = None
    overrides: dict[str, dict[str, Any]] = {}
    share_links: list[ShareLink] = []
    auth: PublishingAuth | None = None
    start: dict[str, Any] | None = None
    while True:
        page = table.Query(partition=site_keys.partition(site_id), limit=1000, start_key=start).run()
        for item in page.items:
            if item.get("type") == "site":
                site = Site.from_item(item)
            elif item.get("type") == "site-space":
                site_spaces.append(SiteSpace.from_item(item))
            elif item.get("type") == "site-section":
                sections.append(Section.from_item(item))
            elif item.get("type") == "site-section-group":
                groups.append(SectionGroup.from_item(item))
            elif item.get("type") == "site-customization":
                customization = customization_of(item)
            elif item.get("type") == "site-space-customization":
                overrides[item["siteSpaceId"]] = customization_of(item)
            elif item.get("type") == "site-share-link":
                share_links.append(ShareLink.from_item(item))
            elif item.get("type") == "site-publishing-auth":
                auth = PublishingAuth.from_item(item)
        if not page.last_key:
            break
        start = page.last_key
    if site is None:
        return None
    return Structure(site, site_spaces, sections, groups, customization, overrides,
                     sorted(share_links, key=lambda link: link.id), auth)
