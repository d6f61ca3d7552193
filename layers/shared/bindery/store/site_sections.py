"""Site sections and section groups (docs/sites.md; keys in bindery.keys.sites).

Both live in the site's partition, so `bindery.store.site_structure.structure` reads them with the site
spaces in its one Query. A section's membership of a group is an attribute of the section
(`sectionGroup`), a group's nesting an attribute of the group (`parent`): moving either is one
conditioned update.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bindery.keys import sites as site_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.table import Item
from bindery.store.tree import named_update_op

EXISTS = "attribute_exists(PK)"
NEW = "attribute_not_exists(PK)"


@dataclass
class Section:
    id: str
    site_id: str
    title: str
    path: str
    position: str
    created_at: str
    description: str | None = None
    condition: str | None = None
    icon: str | None = None
    group: str | None = None  # the section group it belongs to
    default_site_space: str | None = None  # chosen with PATCH; else its first site space

    _FIELDS = ItemFields(
        ("id", "id"), ("site_id", "siteId"), ("title", "title"), ("path", "path"), ("position", "position"),
        ("created_at", "createdAt"), ("description", "description"), ("condition", "condition"),
        ("icon", "icon"), ("group", "sectionGroup"), ("default_site_space", "defaultSiteSpace"),
    )

    def to_item(self) -> Item:
        return {**site_keys.section(self.site_id, self.id), "type": "site-section",
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Section:
        return cls(**cls._FIELDS.values(item))


@dataclass
class SectionGroup:
    id: str
    site_id: str
    title: str
    position: str
    created_at: str
    icon: str | None = None
    parent: str | None = None  # the group it is nested in

    _FIELDS = ItemFields(("id", "id"), ("site_id", "siteId"), ("title", "title"), ("position", "position"),
                         ("created_at", "createdAt"), ("icon", "icon"), ("parent", "parent"))

    def to_item(self) -> Item:
        return {**site_keys.section_group(self.site_id, self.id), "type": "site-section-group",
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> SectionGroup:
        return cls(**cls._FIELDS.values(item))


# --- writes -------------------------------------------------------------------------------------------
def put_section_op(section: Section) -> table.Op:
    return table.put_op(section.to_item(), NEW, name="section")


def section_path_guard_op(section: Section) -> table.Op:
    """Claims the section's path among the site's sections (refused when another section holds it)."""
    return table.put_op({**site_keys.path_guard(section.site_id, site_keys.SECTIONS, section.path),
                         "sectionId": section.id}, NEW, name="path")


def release_section_path_op(section: Section) -> table.Op:
    return table.delete_op(site_keys.path_guard(section.site_id, site_keys.SECTIONS, section.path),
                           name="release-path")


def update_section_op(section: Section, changed: Section) -> table.Op:
    """Writes the fields of `changed` that differ from `section` (as read), if its path and position are
    still those read."""
    sets, removes = Section._FIELDS.changes(section, changed)
    op = named_update_op(site_keys.section(section.site_id, section.id), sets,
                         "#c0 = :path AND #c1 = :position",
                         {":path": section.path, ":position": section.position}, removes)
    op["Update"]["ExpressionAttributeNames"].update({"#c0": "path", "#c1": "position"})
    return table.named("section", op)


def delete_section_op(section: Section) -> table.Op:
    return table.delete_op(site_keys.section(section.site_id, section.id), EXISTS, name="section")


def put_group_op(group: SectionGroup) -> table.Op:
    return table.put_op(group.to_item(), NEW, name="group")


def update_group_op(group: SectionGroup, changed: SectionGroup) -> table.Op:
    """Writes the fields of `changed` that differ from `group` (as read), if the group is still there."""
    sets, removes = SectionGroup._FIELDS.changes(group, changed)
    op = named_update_op(site_keys.section_group(group.site_id, group.id), sets, EXISTS, {}, removes)
    return table.named("group", op)


def delete_group_op(group: SectionGroup) -> table.Op:
    return table.delete_op(site_keys.section_group(group.site_id, group.id), EXISTS, name="group")


def regroup_section_op(section: Section, group: str | None) -> table.Op:
    """Puts the section in `group` (None: the site's top level), if it is still where it was read."""
    key = site_keys.section(section.site_id, section.id)
    seen = "attribute_not_exists(sectionGroup)" if section.group is None else "sectionGroup = :was"
    values: dict[str, Any] = {} if section.group is None else {":was": section.group}
    if group is None:
        return table.update_op(key, "REMOVE sectionGroup", values or None, f"{EXISTS} AND {seen}",
                               name="section")
    return table.update_op(key, "SET sectionGroup = :group", {**values, ":group": group},
                           f"{EXISTS} AND {seen}", name="section")


def reparent_group_op(group: SectionGroup, parent: str | None) -> table.Op:
    key = site_keys.section_group(group.site_id, group.id)
    if parent is None:
        return table.update_op(key, "REMOVE parent", None, EXISTS, name="group")
    return table.update_op(key, "SET parent = :parent", {":parent": parent}, EXISTS, name="group")


def moved(section: Section, **changes: Any) -> Section:
    return replace(section, **changes)
