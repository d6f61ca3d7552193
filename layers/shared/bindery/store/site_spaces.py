"""Site spaces: where a space is published on a site (docs/sites.md; keys in bindery.keys.sites).

A site space is an item of its site's partition, indexed on GSI2 by the space it shows; a guard item per
path keeps paths unique among siblings (`path_guard_op`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.keys import sites as site_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.table import Item
from bindery.store.tree import named_update_op

EXISTS = "attribute_exists(PK)"
NEW = "attribute_not_exists(PK)"


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

    _FIELDS = ItemFields(
        ("id", "id"), ("site_id", "siteId"), ("org_id", "orgId"), ("space_id", "spaceId"), ("path", "path"),
        ("position", "position"), ("created_at", "createdAt"), ("section", "section"),
        ("condition", "condition"),
    )

    def to_item(self) -> Item:
        return {**site_keys.site_space(self.site_id, self.id),
                **site_keys.space_sites_gsi(self.space_id, self.site_id, self.id), "type": "site-space",
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> SiteSpace:
        return cls(**cls._FIELDS.values(item))


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


def put_site_space_op(site_space: SiteSpace) -> table.Op:
    return table.put_op(site_space.to_item(), NEW, name="site-space")


def path_guard_op(site_space: SiteSpace) -> table.Op:
    """Claims the site space's path among its siblings (refused when a sibling holds it)."""
    return table.put_op({**site_keys.path_guard(site_space.site_id, site_space.section, site_space.path),
                         "siteSpaceId": site_space.id}, NEW, name="path")


def release_path_op(site_space: SiteSpace) -> table.Op:
    return table.delete_op(site_keys.path_guard(site_space.site_id, site_space.section, site_space.path),
                           name="release-path")


def update_site_space_op(site_space: SiteSpace, changed: SiteSpace) -> table.Op:
    """Writes the fields of `changed` that differ from `site_space` (as read; its GSI2 keys too when it
    shows another space), if its path and space are still those read."""
    sets, removes = SiteSpace._FIELDS.changes(site_space, changed)
    if changed.space_id != site_space.space_id:
        sets.update(site_keys.space_sites_gsi(changed.space_id, changed.site_id, changed.id))
    op = named_update_op(site_keys.site_space(site_space.site_id, site_space.id), sets,
                         "#p0 = :path AND spaceId = :space",
                         {":path": site_space.path, ":space": site_space.space_id}, removes)
    op["Update"]["ExpressionAttributeNames"]["#p0"] = "path"
    return table.named("site-space", op)


def delete_site_space_op(site_space: SiteSpace) -> table.Op:
    return table.delete_op(site_keys.site_space(site_space.site_id, site_space.id), EXISTS,
                           name="site-space")
