"""Site sections: the top-level parts of a site, each holding site spaces (its variants) (docs/sites.md).

A site without sections shows its site spaces at its root; adding the first section puts those site
spaces into it, and it becomes the default section. Exactly one section is the default (the one chosen
with PATCH SITE `defaultSiteSection` while it exists, else the first), and one site space the default of
each section (chosen with PATCH `defaultSiteSpace`, else the first): a deleted default needs no write.
Section paths are unique among the site's sections through guard items, claimed in the same transaction.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess, org_access
from bindery.domain.sites.placement import position_among
from bindery.domain.sites.records import (
    BUSY,
    checked_condition,
    checked_path,
    commit_change,
    open_for_reader,
    open_structure,
    page_in_order,
    slug,
)
from bindery.domain.sites.site_spaces import new_site_spaces, readable_spaces
from bindery.domain.sites.views import SectionView, site_views
from bindery.engines.content.positions import between
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing
from bindery.store import Op, Transaction, TransactionConflict, site_structure
from bindery.store import site_sections as section_store
from bindery.store import site_spaces as site_space_store
from bindery.store import sites as site_store
from bindery.store.site_sections import Section
from bindery.store.site_structure import Structure

if TYPE_CHECKING:  # request bodies, built by the routes: a listing of the site imports none
    from bindery.requests.site_sections import AddSection, MoveSection, UpdateSection

NO_SECTION = "No matching site section"
# One transaction holds 100 operations: the first section moves each root site space (3 operations).
MAX_ROOT_SITE_SPACES = 31
DELETE_CHUNK = 45  # site spaces deleted per transaction when a section goes (2 operations each)


def _section(structure: Structure, section_id: str) -> Section:
    found = structure.section(section_id)
    if found is None:
        raise NotFound(NO_SECTION)
    return found


def section_view(access: OrgAccess, structure: Structure, section_id: str) -> SectionView:
    return site_views(structure, access.org, access.member).sections[_section(structure, section_id).id]


def level_siblings(structure: Structure, group: str | None) -> list[tuple[str, str]]:
    """(position, id) of the sections and groups directly under `group` (None: the site's top level)."""
    return ([(s.position, s.id) for s in structure.sections if s.group == group]
            + [(g.position, g.id) for g in structure.groups if g.parent == group])


def list_sections(caller: Caller, org_id: str, site_id: str, *, limit: int, page: str | None,
                  share_key: str | None = None) -> Listing[SectionView]:
    """Every section in the order of the site's navigation (groups unfolded), from one Query; visitors of
    a published site read them too (bindery.domain.sites.records.open_for_reader)."""
    reader = open_for_reader(caller, org_id, site_id, share_key)
    views = site_views(reader.structure, reader.org, reader.member)
    ordered: list[SectionView] = []
    for entry in views.top:
        ordered += [entry] if isinstance(entry, SectionView) else entry.sections()
    return page_in_order(ordered, f"site-sections:{site_id}:{caller.user_id}", page, limit)


def _unique_path(structure: Structure, title: str) -> str:
    taken = {section.path for section in structure.sections}
    base = path = slug(title)
    suffix = 1
    while path in taken:
        suffix += 1
        path = f"{base[:100 - len(str(suffix)) - 1]}-{suffix}"
    return path


def add_section(caller: Caller, org_id: str, site_id: str, body: AddSection) -> SectionView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    (space,) = readable_spaces(access.member, org_id, [body.spaceId], "spaceId")
    site, now = structure.site, now_iso()
    title = body.title or (space.title if len(space.title) >= 2 else "Untitled section")
    last = max((position for position, _ in level_siblings(structure, None)), default=None)
    section = Section(id=new_id(), site_id=site.id, title=title[:128], path=_unique_path(structure, title),
                      position=between(last, None), created_at=now, icon=body.icon)
    ops: list[Op] = [section_store.put_section_op(section), section_store.section_path_guard_op(section)]
    root = structure.in_section(None) if not structure.sections else []
    if len(root) > MAX_ROOT_SITE_SPACES:
        raise BadRequest(f"spaceId: a site with more than {MAX_ROOT_SITE_SPACES} site spaces at its root "
                         "cannot be given its first section; remove some first")
    for site_space in root:  # the first section takes the root's site spaces, and its default
        ops += [site_space_store.update_site_space_op(site_space, replace(site_space, section=section.id)),
                site_space_store.release_path_op(site_space),
                site_space_store.path_guard_op(replace(site_space, section=section.id))]
    if root and site.default_site_space:
        section.default_site_space = site.default_site_space
        ops[0] = section_store.put_section_op(section)
    added = 0
    if not any(ss.space_id == space.id for ss in root):
        (made,) = new_site_spaces(site, [space], section.id, [replace(ss, section=section.id) for ss in root],
                                  now)
        ops += [site_space_store.put_site_space_op(made), site_space_store.path_guard_op(made)]
        structure.site_spaces.append(made)
        added = 1
    ops.append(site_store.count_site_spaces_op(site, added, None))
    commit_change(ops)
    for site_space in root:
        site_space.section = section.id
    site.default_site_space = None
    structure.sections.append(section)
    return section_view(access, structure, section.id)


def update_section(caller: Caller, org_id: str, site_id: str, section_id: str, body: UpdateSection
                   ) -> SectionView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    current = _section(structure, section_id)
    changed, ops = _changes(structure, current, body)
    if changed != current:
        ops.append(section_store.update_section_op(current, changed))
        commit_change(ops, taken=("path", f"path: {body.path!r} is taken by another section of this site"))
    _, after = open_structure(caller, org_id, site_id)
    return section_view(access, after, section_id)


def _changes(structure: Structure, current: Section, body: UpdateSection
             ) -> tuple[Section, list[Op]]:
    """The section as the body changes it, and the other writes that go with it."""
    sent = body.model_fields_set
    values: dict[str, Any] = {}
    ops: list[Op] = []
    if body.title is not None:
        values["title"] = body.title
    if body.path is not None and body.path != current.path:
        values["path"] = checked_path(body.path)
        ops += [section_store.release_section_path_op(current),
                section_store.section_path_guard_op(replace(current, path=body.path))]
    if body.defaultSiteSpace is not None:
        if body.defaultSiteSpace not in {ss.id for ss in structure.in_section(current.id)}:
            raise BadRequest(f"defaultSiteSpace: no site space {body.defaultSiteSpace!r} in this section")
        values["default_site_space"] = body.defaultSiteSpace
    for name, value in (("icon", body.icon), ("description", body.description)):
        if name in sent:
            values[name] = value
    if "condition" in sent:
        values["condition"] = checked_condition(body.condition) if body.condition else None
    return replace(current, **values), ops


def move_section(caller: Caller, org_id: str, site_id: str, section_id: str, body: MoveSection
                 ) -> SectionView:
    """Next to another section, at that section's level (in its group, or at the top); with no position,
    last at its own level."""
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    current = _section(structure, section_id)
    where = body.position
    target_id = where.before.siteSection if where and where.before else (
        where.after.siteSection if where and where.after else None)
    target = structure.section(target_id) if target_id else None
    if target_id is not None and target is None:
        raise BadRequest(f"position: invalid position, no section {target_id!r} in this site")
    level = target.group if target else current.group
    position = position_among(level_siblings(structure, level), current.id, what="section",
                              before=where.before.siteSection if where and where.before else None,
                              after=where.after.siteSection if where and where.after else None)
    moved = replace(current, position=position, group=level)
    if moved != current:
        commit_change(section_store.update_section_op(current, moved))
    current.position, current.group = position, level
    return section_view(access, structure, section_id)


def delete_section(caller: Caller, org_id: str, site_id: str, section_id: str) -> None:
    """The section goes with its site spaces (in transactions of at most DELETE_CHUNK site spaces, the
    section last, so a delete cut short leaves a smaller section rather than orphans). 204 when missing."""
    access = org_access(org_id, caller)
    access.require("admin", "change sites")
    structure = site_structure.structure(site_id)
    if structure is None or structure.site.org_id != org_id:
        return
    doomed = structure.section(section_id)
    if doomed is None:
        return
    site_spaces = structure.in_section(doomed.id)
    try:
        while len(site_spaces) > DELETE_CHUNK:
            chunk, site_spaces = site_spaces[:DELETE_CHUNK], site_spaces[DELETE_CHUNK:]
            Transaction(_delete_site_spaces_ops(structure, chunk)).commit()
        Transaction(_delete_site_spaces_ops(structure, site_spaces), section_store.delete_section_op(doomed),
                    section_store.release_section_path_op(doomed)).commit()
    except TransactionConflict:
        raise Conflict(BUSY) from None


def _delete_site_spaces_ops(structure: Structure, site_spaces: list[Any]) -> list[Op]:
    ops: list[Op] = []
    for site_space in site_spaces:
        ops += [site_space_store.delete_site_space_op(site_space),
                site_space_store.release_path_op(site_space)]
    site = structure.site
    ops.append(site_store.count_site_spaces_op(site, -len(site_spaces), site.default_site_space))
    return ops
