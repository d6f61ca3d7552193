"""Docs sites and their site spaces (docs/sites.md; keys in bindery.keys.sites).

A site's partition holds the site item, its site spaces and the guards that keep their paths unique
among siblings, so the whole structure is one Query (`structure`). Writes that change more than one item
are one transaction of named operations; the site item's `updatedAt` conditions read-modify-writes of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery.keys import sites as site_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.site_sections import Section, SectionGroup
from bindery.store.site_settings import PublishingAuth, ShareLink, customization_of
from bindery.store.table import Item
from bindery.store.tree import named_update_op

EXISTS = "attribute_exists(PK)"
NEW = "attribute_not_exists(PK)"


@dataclass
class Site:
    id: str
    org_id: str
    title: str
    created_at: str
    updated_at: str
    type: str = "basic"
    visibility: str = "public"
    published: bool = False
    basename: str | None = None
    hostname: str | None = None
    proxy: str | None = None  # the origin: host and path, no scheme
    adaptive_content: bool = False
    agents_context: str = "included"
    site_spaces: int = 0  # the site spaces it holds (a counter moved with each add and delete)
    default_site_space: str | None = None  # the default site space at the root
    default_section: str | None = None  # chosen with PATCH; else its first section

    _FIELDS = ItemFields(
        ("id", "id"), ("org_id", "orgId"), ("title", "title"), ("created_at", "createdAt"),
        ("updated_at", "updatedAt"), ("type", "siteType"), ("visibility", "visibility"),
        ("published", "published"), ("basename", "basename"), ("hostname", "hostname"), ("proxy", "proxy"),
        ("adaptive_content", "adaptiveContent"), ("agents_context", "agentsContext"),
        ("site_spaces", "siteSpaces"), ("default_site_space", "defaultSiteSpace"),
        ("default_section", "defaultSiteSection"),
    )

    def to_item(self) -> Item:
        return {**site_keys.site(self.id), **site_keys.org_sites_gsi(self.org_id, self.id), "type": "site",
                "titleSearch": self.title.lower(), **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Site:
        values = cls._FIELDS.values(item)
        values["site_spaces"] = int(values.get("site_spaces", 0))
        return cls(**values)


@dataclass
class SiteSpace:
    id: str
    site_id: str
    org_id: str
    space_id: str
    path: str
    position: str
    created_at: str
    section: str | None = None
    condition: str | None = None

    def to_item(self) -> Item:
        item: Item = {**site_keys.site_space(self.site_id, self.id),
                      **site_keys.space_sites_gsi(self.space_id, self.site_id, self.id),
                      "type": "site-space", "id": self.id, "siteId": self.site_id, "orgId": self.org_id,
                      "spaceId": self.space_id, "path": self.path, "position": self.position,
                      "createdAt": self.created_at}
        if self.section is not None:
            item["section"] = self.section
        if self.condition is not None:
            item["condition"] = self.condition
        return item

    @classmethod
    def from_item(cls, item: Item) -> SiteSpace:
        return cls(id=item["id"], site_id=item["siteId"], org_id=item["orgId"], space_id=item["spaceId"],
                   path=item["path"], position=item["position"], created_at=item["createdAt"],
                   section=item.get("section"), condition=item.get("condition"))


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


# --- reads -------------------------------------------------------------------------------------------
def get_site(site_id: str) -> Site | None:
    item = table.get(site_keys.site(site_id))
    return Site.from_item(item) if item else None


def get_sites(site_ids: list[str]) -> dict[str, Site]:
    ids = list(dict.fromkeys(site_ids))
    found: dict[str, Site] = {}
    for start in range(0, len(ids), 100):
        for item in table.batch_get([site_keys.site(site_id) for site_id in ids[start:start + 100]]):
            found[item["id"]] = Site.from_item(item)
    return found


def structure(site_id: str) -> Structure | None:
    """The site with all its site spaces, sections, groups, customization and share links: one Query of
    the site's partition (paged past 1 MB)."""
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


def site_id_for_hostname(hostname: str) -> str | None:
    """The site served at a custom hostname (one GetItem of its guard)."""
    item = table.get(site_keys.hostname_guard(hostname), consistent=False)
    return str(item["siteId"]) if item else None


def site_id_for_basename(org_id: str, basename: str) -> str | None:
    """The organization's site with that basename (one GetItem of its guard)."""
    item = table.get(site_keys.basename_guard(org_id, basename), consistent=False)
    return str(item["siteId"]) if item else None


def hostname_ops(site: Site, hostname: str | None) -> list[table.Op]:
    """Serve the site at `hostname` (None: at no custom hostname): the site's attribute and the
    hostname's guard, claimed only while no other site holds it."""
    ops: list[table.Op] = []
    if site.hostname and site.hostname != (hostname or "").lower():
        ops.append(table.delete_op(site_keys.hostname_guard(site.hostname), name="release-hostname"))
    if hostname:
        ops.append(table.put_op({**site_keys.hostname_guard(hostname), "siteId": site.id},
                                "attribute_not_exists(PK) OR siteId = :me", name="hostname",
                                ExpressionAttributeValues={":me": site.id}))
        ops.append(table.update_op(site_keys.site(site.id), "SET hostname = :h", {":h": hostname.lower()},
                                   EXISTS, name="site"))
    else:
        ops.append(table.update_op(site_keys.site(site.id), "REMOVE hostname", None, EXISTS, name="site"))
    return ops


def org_sites_page(org_id: str, limit: int, start_key: dict[str, Any] | None, narrow: Any = None
                   ) -> table.QueryPage:
    """GSI1: one page of the organization's sites, in creation order; `narrow` filters it."""
    return table.Query(partition=site_keys.org_sites_partition(org_id), index="GSI1", limit=limit,
                       start_key=start_key, filter=narrow).run()


def org_sites_count(org_id: str, narrow: Any = None) -> int:
    return table.Query(partition=site_keys.org_sites_partition(org_id), index="GSI1", filter=narrow).count()


def space_site_spaces(space_id: str) -> list[SiteSpace]:
    """Every site space that shows the space, on any site (GSI2)."""
    found: list[SiteSpace] = []
    start: dict[str, Any] | None = None
    while True:
        page = table.Query(partition=site_keys.space_sites_partition(space_id), index="GSI2", limit=1000,
                           start_key=start).run()
        found += [SiteSpace.from_item(item) for item in page.items]
        if not page.last_key:
            return found
        start = page.last_key


# --- writes -------------------------------------------------------------------------------------------
def put_site_op(site: Site) -> table.Op:
    return table.put_op(site.to_item(), NEW, name="site")


def basename_guard_op(org_id: str, basename: str, site_id: str) -> table.Op:
    """Claims `basename` in the organization for the site (refused when another site holds it)."""
    return table.put_op({**site_keys.basename_guard(org_id, basename), "siteId": site_id}, NEW,
                        name="basename")


def release_basename_op(org_id: str, basename: str) -> table.Op:
    return table.delete_op(site_keys.basename_guard(org_id, basename), name="release-basename")


def update_site_op(site: Site, sets: dict[str, Any], removes: tuple[str, ...] = ()) -> table.Op:
    """Sets attributes of the site if nobody changed it since it was read (`updatedAt`)."""
    op = named_update_op(site_keys.site(site.id), sets, "updatedAt = :seen", {":seen": site.updated_at},
                         removes)
    return table.named("site", op)


def put_site_space_op(site_space: SiteSpace) -> table.Op:
    return table.put_op(site_space.to_item(), NEW, name="site-space")


def path_guard_op(site_space: SiteSpace) -> table.Op:
    """Claims the site space's path among its siblings (refused when a sibling holds it)."""
    return table.put_op({**site_keys.path_guard(site_space.site_id, site_space.section, site_space.path),
                         "siteSpaceId": site_space.id}, NEW, name="path")


def release_path_op(site_space: SiteSpace) -> table.Op:
    return table.delete_op(site_keys.path_guard(site_space.site_id, site_space.section, site_space.path),
                           name="release-path")


def update_site_space_op(site_space: SiteSpace, sets: dict[str, Any], removes: tuple[str, ...] = ()
                         ) -> table.Op:
    """Sets attributes of the site space if its path and space are still those read."""
    op = named_update_op(site_keys.site_space(site_space.site_id, site_space.id), sets,
                         "#p0 = :path AND spaceId = :space",
                         {":path": site_space.path, ":space": site_space.space_id}, removes)
    op["Update"]["ExpressionAttributeNames"]["#p0"] = "path"
    return table.named("site-space", op)


def delete_site_space_op(site_space: SiteSpace) -> table.Op:
    return table.delete_op(site_keys.site_space(site_space.site_id, site_space.id), EXISTS,
                           name="site-space")


def count_site_spaces_op(site: Site, delta: int, default_site_space: str | None) -> table.Op:
    """Moves the site's `siteSpaces` counter and sets (or, with None, removes) its default site space,
    if nobody changed the site since it was read."""
    key = site_keys.site(site.id)
    values: dict[str, Any] = {":d": delta, ":seen": site.updated_at}
    if default_site_space is None:
        expression = "ADD siteSpaces :d REMOVE defaultSiteSpace"
    else:
        expression = "ADD siteSpaces :d SET defaultSiteSpace = :default"
        values[":default"] = default_site_space
    return table.update_op(key, expression, values, "updatedAt = :seen", name="site")


def delete_partition_items(site_id: str) -> int:
    """Deletes every item of the site's partition but the site item itself (deleted last by the caller, so
    that a delete cut short is finished by the next one); how many items went."""
    deleted = 0
    start: dict[str, Any] | None = None
    while True:
        page = table.Query(partition=site_keys.partition(site_id), limit=1000, start_key=start,
                           extra={"ProjectionExpression": "PK, SK"}).run()
        doomed = [{"PK": item["PK"], "SK": item["SK"]} for item in page.items
                  if item["SK"] != site_keys.site(site_id)["SK"]]
        table.batch_delete(doomed)
        deleted += len(doomed)
        if not page.last_key:
            return deleted
        start = page.last_key


def delete_site_ops(site: Site) -> list[table.Op]:
    ops = [table.delete_op(site_keys.site(site.id), name="site")]
    if site.basename:
        ops.append(release_basename_op(site.org_id, site.basename))
    if site.hostname:
        ops.append(table.delete_op(site_keys.hostname_guard(site.hostname), name="release-hostname"))
    return ops
