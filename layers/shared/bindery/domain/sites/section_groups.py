"""Site section groups: named groups of sections in a site's navigation, nestable (docs/sites.md).

A section names its group (`sectionGroup`), a group its parent: adding a section to a group is one
conditioned update of the section. Deleting a group puts its sections and groups back at its parent's
level; nothing else goes.
"""

from __future__ import annotations

from dataclasses import replace

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess, org_access
from bindery.domain.sites.records import commit_change, open_structure, page_in_order
from bindery.domain.sites.sections import level_siblings
from bindery.domain.sites.views import GroupView, site_views
from bindery.engines.content.positions import between
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing
from bindery.requests.site_sections import AddSectionGroup, AddSectionToGroup, UpdateSectionGroup
from bindery.store import Op, site_structure
from bindery.store import site_sections as section_store
from bindery.store.site_sections import SectionGroup
from bindery.store.site_structure import Structure

NO_GROUP = "No matching site section group"
MAX_SECTIONS = 98  # one transaction: the group and each section it takes


def _group(structure: Structure, group_id: str) -> SectionGroup:
    found = structure.group(group_id)
    if found is None:
        raise NotFound(NO_GROUP)
    return found


def group_view(access: OrgAccess, structure: Structure, group_id: str) -> GroupView:
    return site_views(structure, access.org, access.member).groups[_group(structure, group_id).id]


def _unfolded(entries: list[object]) -> list[GroupView]:
    """Groups in navigation order, each before the groups nested in it."""
    found: list[GroupView] = []
    for entry in entries:
        if isinstance(entry, GroupView):
            found += [entry, *_unfolded(list(entry.children))]
    return found


def list_groups(caller: Caller, org_id: str, site_id: str, *,
                limit: int, page: str | None) -> Listing[GroupView]:
    access, structure = open_structure(caller, org_id, site_id)
    ordered = _unfolded(list(site_views(structure, access.org, access.member).top))
    return page_in_order(ordered, f"site-section-groups:{site_id}:{caller.user_id}", page, limit)


def add_group(caller: Caller, org_id: str, site_id: str, body: AddSectionGroup) -> GroupView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    if body.parent is not None and structure.group(body.parent) is None:
        raise BadRequest(f"parent: no section group {body.parent!r} in this site")
    sections = list(dict.fromkeys(body.sections or []))
    if len(sections) > MAX_SECTIONS:
        raise BadRequest(f"sections: at most {MAX_SECTIONS} sections at once")
    last = max((position for position, _ in level_siblings(structure, body.parent)), default=None)
    group = SectionGroup(id=new_id(), site_id=site_id, title=body.title, position=between(last, None),
                         created_at=now_iso(), icon=body.icon, parent=body.parent)
    ops: list[Op] = [section_store.put_group_op(group)]
    for section_id in sections:
        section = structure.section(section_id)
        if section is None:
            raise BadRequest(f"sections: no section {section_id!r} in this site")
        ops.append(section_store.regroup_section_op(section, group.id))
        section.group = group.id
    commit_change(ops)
    structure.groups.append(group)
    return group_view(access, structure, group.id)


def update_group(caller: Caller, org_id: str, site_id: str, group_id: str, body: UpdateSectionGroup
                 ) -> GroupView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    group = _group(structure, group_id)
    changed = replace(group, title=body.title if body.title is not None else group.title,
                      icon=body.icon if "icon" in body.model_fields_set else group.icon)
    if changed != group:
        commit_change([section_store.update_group_op(group, changed)])
    group.title, group.icon = changed.title, changed.icon
    return group_view(access, structure, group_id)


def delete_group(caller: Caller, org_id: str, site_id: str, group_id: str) -> None:
    """Its sections and groups move up to its parent's level; 204 when it is missing."""
    access = org_access(org_id, caller)
    access.require("admin", "change sites")
    structure = site_structure.structure(site_id)
    if structure is None or structure.site.org_id != org_id:
        return
    group = structure.group(group_id)
    if group is None:
        return
    ops: list[Op] = [section_store.delete_group_op(group)]
    up = group.parent
    ops += [section_store.regroup_section_op(s, up) for s in structure.sections if s.group == group.id]
    ops += [section_store.reparent_group_op(g, up) for g in structure.groups if g.parent == group.id]
    commit_change(ops)


def add_section_to_group(caller: Caller, org_id: str, site_id: str, group_id: str, body: AddSectionToGroup
                         ) -> GroupView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    group = _group(structure, group_id)
    section = structure.section(body.sectionId)
    if section is None:
        raise BadRequest(f"sectionId: no section {body.sectionId!r} in this site")
    if section.group != group.id:
        commit_change([section_store.regroup_section_op(section, group.id)])
        section.group = group.id
    return group_view(access, structure, group_id)


def remove_section_from_group(caller: Caller, org_id: str, site_id: str, group_id: str, section_id: str
                              ) -> None:
    """The section moves up to the group's parent level; nothing happens (204 too) when it was not in
    the group, or the group or section is missing."""
    access = org_access(org_id, caller)
    access.require("admin", "change sites")
    structure = site_structure.structure(site_id)
    if structure is None or structure.site.org_id != org_id:
        return
    group, section = structure.group(group_id), structure.section(section_id)
    if group is not None and section is not None and section.group == group.id:
        commit_change([section_store.regroup_section_op(section, group.parent)])

