"""Site spaces: the spaces a site shows, each at a path, one of them the default (docs/sites.md).

A site without sections holds its site spaces at its root. Their order is a fractional position
(bindery.positions); their paths are unique among siblings (a guard item per path, claimed in the same
transaction). The site's `siteSpaces` counter and its default site space move in that transaction too,
conditioned on the site as read. A site space whose space was deleted or left the organization is kept
but hidden (it shows again if the space is restored); docs/sites.md says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.api.schemas.sites import AddSiteSpace, UpdateSiteSpace
from bindery.auth import Caller
from bindery.clock import now_iso
from bindery.domain.access.content import roles_on
from bindery.domain.access.organization import org_access
from bindery.domain.sites.records import (
    NO_SITE,
    NO_SITE_SPACE,
    checked_condition,
    checked_path,
    open_structure,
    slug,
)
from bindery.errors import BadRequest, Conflict, NotFound
from bindery.ids import new_id
from bindery.pagination import Listing, next_page, open_page
from bindery.positions import between
from bindery.store import Transaction, TransactionConflict
from bindery.store import sites as site_store
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.sites import Site, SiteSpace, Structure
from bindery.store.spaces import Space, get_spaces

BUSY = "The site changed while this request ran; nothing was changed, try again"


@dataclass(frozen=True)
class SiteSpaceView:
    """A site space as the caller sees it: with its space (and the caller's role on it) and its site."""

    site_space: SiteSpace
    space: Space
    role: str | None
    site: Site
    org: Organization

    @property
    def is_default(self) -> bool:
        return self.site.default_site_space == self.site_space.id


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


def _views(member: Member, structure: Structure, org: Organization, site_spaces: list[SiteSpace]
           ) -> list[SiteSpaceView]:
    """The views of those site spaces whose space is live in the organization and readable by the member."""
    spaces = get_spaces([ss.space_id for ss in site_spaces])
    live = {space.id: space for space in spaces.values()
            if space.deleted_at is None and space.org_id == structure.site.org_id}
    roles = roles_on(member, list(live.values()))
    return [SiteSpaceView(ss, live[ss.space_id], roles[ss.space_id], structure.site, org)
            for ss in site_spaces if ss.space_id in live and roles.get(ss.space_id) is not None]


def list_site_spaces(caller: Caller, org_id: str, site_id: str, *, default: bool | None, limit: int,
                     page: str | None) -> Listing:
    """In order, from the site's structure (one Query) and one BatchGetItem of their spaces; the count is
    exact from the same reads."""
    access, structure = open_structure(caller, org_id, site_id)
    shown = _views(access.member, structure, access.org, structure.ordered())
    if default is not None:
        shown = [view for view in shown if view.is_default == default]
    scope = f"site-spaces:{site_id}:{default}:{caller.user_id}"
    start = open_page(scope, page)
    after = (start.start or {}).get("after")
    if after is not None:
        shown_after = [v for v in shown if (v.site_space.position, v.site_space.id) > (after[0], after[1])]
    else:
        shown_after = shown
    items = shown_after[:limit]
    last = items[-1].site_space if items and len(shown_after) > limit else None
    cursor = next_page(scope, {"after": [last.position, last.id]} if last else None)
    return Listing(items, cursor, len(shown))


def add_site_space(caller: Caller, org_id: str, site_id: str, body: AddSiteSpace) -> SiteSpaceView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    if body.sectionId is not None:
        raise BadRequest(f"sectionId: no section {body.sectionId!r} in this site")
    (space,) = readable_spaces(access.member, org_id, [body.spaceId], "spaceId")
    site = structure.site
    (made,) = new_site_spaces(site, [space], None, structure.site_spaces, now_iso())
    default = site.default_site_space or made.id
    try:
        Transaction(site_store.put_site_space_op(made), site_store.path_guard_op(made),
                    site_store.count_site_spaces_op(site, 1, default)).commit()
    except TransactionConflict:
        raise Conflict(BUSY) from None
    site.site_spaces += 1
    site.default_site_space = default
    role = roles_on(access.member, [space])[space.id]
    return SiteSpaceView(made, space, role, site, access.org)


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
    sets: dict[str, Any] = {}
    removes: list[str] = []
    ops = []
    if "path" in sent and body.path is not None and body.path != current.path:
        sets["path"] = checked_path(body.path)
        moved = SiteSpace(**{**current.__dict__, "path": body.path})
        ops += [site_store.release_path_op(current), site_store.path_guard_op(moved)]
    if "condition" in sent:
        if body.condition is None or body.condition == "":
            removes.append("condition")
        else:
            sets["condition"] = checked_condition(body.condition)
    if "spaceId" in sent and body.spaceId is not None and body.spaceId != current.space_id:
        (space,) = readable_spaces(access.member, org_id, [body.spaceId], "spaceId")
        moved_space = SiteSpace(**{**current.__dict__, "space_id": space.id})
        sets.update({"spaceId": space.id, **{k: v for k, v in moved_space.to_item().items()
                                            if k.startswith("GSI2")}})
    if sets or removes:
        ops.append(site_store.update_site_space_op(current, sets, tuple(removes)))
        try:
            Transaction(ops).commit()
        except TransactionConflict as conflict:
            if conflict.failed("path"):
                raise BadRequest(f"path: {body.path!r} is taken by another site space here") from None
            raise Conflict(BUSY) from None
    _, after = open_structure(caller, org_id, site_id)
    views = _views(access.member, after, access.org, [_site_space(after, site_space_id)])
    if not views:
        raise NotFound(NO_SITE_SPACE)
    return views[0]


def delete_site_space(caller: Caller, org_id: str, site_id: str, site_space_id: str) -> None:
    """Gone, with its path; when it was the default, the first remaining site space takes its place.
    A missing site space (or site) is a 204 too."""
    access = org_access(org_id, caller)
    access.require("admin", "change sites")
    structure = site_store.structure(site_id)
    if structure is None or structure.site.org_id != org_id:
        return
    doomed = structure.site_space(site_space_id)
    if doomed is None:
        return
    site = structure.site
    default = site.default_site_space
    if default == doomed.id:
        rest = [ss for ss in structure.ordered() if ss.id != doomed.id and ss.section is None]
        default = rest[0].id if rest else None
    try:
        Transaction(site_store.delete_site_space_op(doomed), site_store.release_path_op(doomed),
                    site_store.count_site_spaces_op(site, -1, default)).commit()
    except TransactionConflict:
        raise Conflict(BUSY) from None


__all__ = ["NO_SITE", "SiteSpaceView"]
