"""Docs sites: the site item, its basename and hostname guards (docs/sites.md; keys in bindery.keys.sites).

A site's partition holds the site item and everything the site is made of (its site spaces in
store.site_spaces, sections, settings), so the whole structure is one Query (store.site_structure).
Writes that change more than one item are one transaction of named operations; the site item's
`updatedAt` conditions read-modify-writes of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boto3.dynamodb.conditions import Attr

from bindery.keys import sites as site_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
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


@dataclass(frozen=True)
class SiteFilter:
    """What narrows a listing of the organization's sites (None, empty: not narrowed): a title that
    contains `title` (case-insensitive), published or not, of one of `types`."""

    title: str | None = None
    published: bool | None = None
    types: tuple[str, ...] = ()

    def condition(self) -> Any:
        """The FilterExpression, None when nothing narrows."""
        conditions: list[Any] = []
        if self.title:
            conditions.append(Attr("titleSearch").contains(self.title.lower()))
        if self.published is not None:
            conditions.append(Attr("published").eq(self.published))
        if self.types:
            conditions.append(Attr("siteType").is_in(list(dict.fromkeys(self.types))))
        combined: Any = None
        for condition in conditions:
            combined = condition if combined is None else combined & condition
        return combined


def org_sites_page(org_id: str, limit: int, start_key: dict[str, Any] | None,
                   narrow: SiteFilter | None = None) -> table.QueryPage:
    """GSI1: one page of the organization's sites, in creation order; `narrow` filters it."""
    return table.Query(partition=site_keys.org_sites_partition(org_id), index="GSI1", limit=limit,
                       start_key=start_key, filter=narrow.condition() if narrow else None).run()


def org_sites_count(org_id: str, narrow: SiteFilter | None = None) -> int:
    return table.Query(partition=site_keys.org_sites_partition(org_id), index="GSI1",
                       filter=narrow.condition() if narrow else None).count()

# --- writes -------------------------------------------------------------------------------------------
def put_site_op(site: Site) -> table.Op:
    return table.put_op(site.to_item(), NEW, name="site")


def basename_guard_op(org_id: str, basename: str, site_id: str) -> table.Op:
    """Claims `basename` in the organization for the site (refused when another site holds it)."""
    return table.put_op({**site_keys.basename_guard(org_id, basename), "siteId": site_id}, NEW,
                        name="basename")


def release_basename_op(org_id: str, basename: str) -> table.Op:
    return table.delete_op(site_keys.basename_guard(org_id, basename), name="release-basename")


def update_site_op(site: Site, changed: Site) -> table.Op:
    """Writes the fields of `changed` that differ from `site` (as read), and always its `updatedAt`, if
    nobody changed the site since it was read (`updatedAt`)."""
    sets, removes = Site._FIELDS.changes(site, changed)
    sets["updatedAt"] = changed.updated_at
    if changed.title != site.title:
        sets["titleSearch"] = changed.title.lower()
    op = named_update_op(site_keys.site(site.id), sets, "updatedAt = :seen", {":seen": site.updated_at},
                         removes)
    return table.named("site", op)

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
