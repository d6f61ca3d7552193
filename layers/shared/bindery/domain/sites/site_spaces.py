"""Site spaces: the spaces a site shows, each at a path, one of them the default (docs/sites.md).

A site without sections holds its site spaces at its root. Their order is a fractional position
(bindery.engines.content.positions); their paths are unique among siblings (a guard item per path, claimed in
the same
transaction). The site's `siteSpaces` counter and its default site space move in that transaction too,
conditioned on the site as read. A site space whose space was deleted or left the organization is kept
but hidden (it shows again if the space is restored); docs/sites.md says why.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import roles_on
from bindery.domain.access.organization import OrgAccess, org_access
from bindery.domain.sites.placement import position_among
from bindery.domain.sites.records import (
    NO_SITE,
    NO_SITE_SPACE,
    checked_condition,
    checked_path,
    commit_change,
    open_for_reader,
    open_structure,
    slug,
)
from bindery.domain.sites.views import SiteSpaceView, site_views
from bindery.engines.content.positions import between
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.store import site_spaces as site_space_store
from bindery.store import site_structure
from bindery.store import sites as site_store
from bindery.store.members import Member
from bindery.store.site_spaces import SiteSpace
from bindery.store.site_structure import Structure
from bindery.store.sites import Site
from bindery.store.spaces import Space, get_spaces

if TYPE_CHECKING:  # request bodies, built by the routes: a listing of the site imports none
    from bindery.requests.site_sections import MoveSiteSpace
    from bindery.requests.sites import AddSiteSpace, UpdateSiteSpace


def readable_spaces(member: Member, org_id: str, space_ids: list[str], field: str) -> list[Space]:
    """The named spaces, each live in the organization and readable by the member; else a 400 naming it."""
    found = get_spaces(space_ids)
    live = [found[space_id] for space_id in space_ids if space_id in found
            and found[space_id].deleted_at is None and found[space_id].org_id == org_id]
    roles = roles_on(member, live)
    for space_id in space_ids:
        if roles.get(space_id) is None:
            raise BadRequest(f"{field}: no space {space_id!r} in this organization")
    return [found[space_id] for space_id in space_ids]


def new_site_spaces(site: Site, spaces: list[Space], section: str | None, siblings: list[SiteSpace],
                    now: str) -> list[SiteSpace]:
    """Site spaces for `spaces`, after `siblings`, each at a path of its own among them (the space's title
    made a path, with `-2`, `-3`… when taken)."""
    taken = {sibling.path for sibling in siblings}
    last = max((sibling.position for sibling in siblings), default=None)
    made: list[SiteSpace] = []
    for space in spaces:
        base, path, suffix = slug(space.title), slug(space.title), 1
        while path in taken:
            suffix += 1
            path = f"{base[:100 - len(str(suffix)) - 1]}-{suffix}"
        taken.add(path)
        last = between(last, None)
        made.append(SiteSpace(id=new_id(), site_id=site.id, org_id=site.org_id, space_id=space.id, path=path,
                              position=last, created_at=now, section=section))
    return made


def view_of(access: OrgAccess, structure: Structure, site_space_id: str) -> SiteSpaceView:
    found = site_views(structure, access.org, access.member).site_spaces.get(site_space_id)
    if found is None:
        raise NotFound(NO_SITE_SPACE)
    return found


def _listing_key(structure: Structure, view: SiteSpaceView) -> list[str]:
    """Site spaces list by section (root ones first, then in section order), then in order within it."""
    section = structure.section(view.site_space.section) if view.site_space.section else None
    return [section.position if section else "", view.site_space.position, view.site_space.id]


def list_site_spaces(caller: Caller, org_id: str, site_id: str, *, default: bool | None, limit: int,
                     page: str | None, share_key: str | None = None) -> Listing[SiteSpaceView]:
    """In order, from the site's structure (one Query) and one BatchGetItem of their spaces; the count is
    exact from the same reads. Visitors of a published site read them too (`open_for_reader`)."""
    reader = open_for_reader(caller, org_id, site_id, share_key)
    structure = reader.structure
    views = site_views(structure, reader.org, reader.member)
    shown = sorted(views.site_spaces.values(), key=lambda view: _listing_key(structure, view))
    if default is not None:
        shown = [view for view in shown if view.default == default]
    scope = f"site-spaces:{site_id}:{default}:{caller.user_id}"
    start = open_page(scope, page)
    after = (start.start or {}).get("after")
    rest = [view for view in shown if after is None or _listing_key(structure, view) > after]
    items = rest[:limit]
    cursor = next_page(scope, {"after": _listing_key(structure, items[-1])} if len(rest) > limit else None)
    return Listing(items, cursor, len(shown))


def _target_section(structure: Structure, section_id: str | None) -> str | None:
    """Where a new site space goes: the section named, else the default section (None when the site has
    no sections: its root)."""
    if section_id is not None:
        if structure.section(section_id) is None:
            raise BadRequest(f"sectionId: no section {section_id!r} in this site")
        return section_id
    default = structure.default_section()
    return default.id if default else None


def add_site_space(caller: Caller, org_id: str, site_id: str, body: AddSiteSpace) -> SiteSpaceView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    section = _target_section(structure, body.sectionId)
    (space,) = readable_spaces(access.member, org_id, [body.spaceId], "spaceId")
    site = structure.site
    (made,) = new_site_spaces(site, [space], section, structure.in_section(section), now_iso())
    default = site.default_site_space or made.id if section is None else site.default_site_space
    commit_change(site_space_store.put_site_space_op(made), site_space_store.path_guard_op(made),
                  site_store.count_site_spaces_op(site, 1, default))
    site.site_spaces += 1
    site.default_site_space = default
    structure.site_spaces.append(made)
    return view_of(access, structure, made.id)


def _site_space(structure: Structure, site_space_id: str) -> SiteSpace:
    found = structure.site_space(site_space_id)
    if found is None:
        raise NotFound(NO_SITE_SPACE)
    return found


def update_site_space(caller: Caller, org_id: str, site_id: str, site_space_id: str,
                      body: UpdateSiteSpace) -> SiteSpaceView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    current = _site_space(structure, site_space_id)
    sent = body.model_fields_set
    values: dict[str, Any] = {}
    ops = []
    if "path" in sent and body.path is not None and body.path != current.path:
        values["path"] = checked_path(body.path)
        ops += [site_space_store.release_path_op(current),
                site_space_store.path_guard_op(replace(current, path=body.path))]
    if "condition" in sent:
        values["condition"] = checked_condition(body.condition) if body.condition else None
    if "spaceId" in sent and body.spaceId is not None and body.spaceId != current.space_id:
        (space,) = readable_spaces(access.member, org_id, [body.spaceId], "spaceId")
        values["space_id"] = space.id
    changed = replace(current, **values)
    if changed != current:
        ops.append(site_space_store.update_site_space_op(current, changed))
        commit_change(ops, taken=("path", f"path: {body.path!r} is taken by another site space here"))
    _, after = open_structure(caller, org_id, site_id)
    return view_of(access, after, site_space_id)


def move_site_space(caller: Caller, org_id: str, site_id: str, site_space_id: str, body: MoveSiteSpace
                    ) -> SiteSpaceView:
    """Among the site spaces of its section (or of the root): a site space keeps its section, so its path
    stays unique where it is."""
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    current = _site_space(structure, site_space_id)
    where = body.position
    siblings = [(ss.position, ss.id) for ss in structure.in_section(current.section)]
    position = position_among(
        siblings, current.id, what="site space",
        before=where.before.siteSpace if where and where.before else None,
        after=where.after.siteSpace if where and where.after else None)
    moved = replace(current, position=position)
    if moved != current:
        commit_change(site_space_store.update_site_space_op(current, moved))
    current.position = position
    return view_of(access, structure, site_space_id)


def delete_site_space(caller: Caller, org_id: str, site_id: str, site_space_id: str) -> None:
    """Gone, with its path; when it was the default, the first remaining site space takes its place.
    A missing site space (or site) is a 204 too."""
    access = org_access(org_id, caller)
    access.require("admin", "change sites")
    structure = site_structure.structure(site_id)
    if structure is None or structure.site.org_id != org_id:
        return
    doomed = structure.site_space(site_space_id)
    if doomed is None:
        return
    site = structure.site
    default = site.default_site_space
    if doomed.section is None and default == doomed.id:
        rest = [ss for ss in structure.in_section(None) if ss.id != doomed.id]
        default = rest[0].id if rest else None
    # In a section, a deleted default needs no write: the section's first site space is its default.
    commit_change(site_space_store.delete_site_space_op(doomed), site_space_store.release_path_op(doomed),
                  site_store.count_site_spaces_op(site, -1, default))


__all__ = ["NO_SITE", "SiteSpaceView", "view_of"]
