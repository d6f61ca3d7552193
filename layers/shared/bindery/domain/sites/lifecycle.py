"""Creating, changing, publishing and deleting sites (docs/sites.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import org_access
from bindery.domain.sites.records import NO_SITE_SPACE, commit_change, open_site, open_structure
from bindery.domain.sites.site_spaces import new_site_spaces, readable_spaces
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest
from bindery.platform.ids import new_id
from bindery.store import Op, Transaction
from bindery.store import site_sections as section_store
from bindery.store import site_spaces as site_space_store
from bindery.store import sites as site_store
from bindery.store.orgs import Organization
from bindery.store.site_structure import Structure
from bindery.store.sites import Site

if TYPE_CHECKING:  # request bodies, built by the routes: a reading of the site imports none
    from bindery.requests.sites import CreateSite, UpdateSite

# A transaction holds 100 operations: the site, its basename guard, and two per site space.
MAX_SPACES = 49


@dataclass(frozen=True)
class SiteResult:
    site: Site
    org: Organization


def create_site(caller: Caller, org_id: str, body: CreateSite) -> SiteResult:
    access = org_access(org_id, caller)
    access.require("admin", "create sites")
    spaces = list(dict.fromkeys(body.spaces or []))
    if len(spaces) > MAX_SPACES:
        raise BadRequest(f"spaces: at most {MAX_SPACES} spaces when creating a site")
    now = now_iso()
    site = Site(id=new_id(), org_id=org_id, title=body.title or "Untitled site", created_at=now,
                updated_at=now, type=body.type or "basic", visibility=body.visibility or "public")
    chosen = readable_spaces(access.member, org_id, spaces, "spaces")
    site_spaces = new_site_spaces(site, chosen, None, [], now)
    site.site_spaces = len(site_spaces)
    site.default_site_space = site_spaces[0].id if site_spaces else None
    ops = [site_store.put_site_op(site)]
    for site_space in site_spaces:
        ops += [site_space_store.put_site_space_op(site_space), site_space_store.path_guard_op(site_space)]
    Transaction(ops).commit()
    return SiteResult(site, access.org)


def get_site(caller: Caller, org_id: str, site_id: str) -> SiteResult:
    context = open_site(caller, org_id, site_id)
    return SiteResult(context.site, context.org)


def update_site(caller: Caller, org_id: str, site_id: str, body: UpdateSite) -> SiteResult:
    """Only the fields sent change (none of them but `proxy` may be null); one conditioned update of the
    site, with the basename guards when the basename changes."""
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "change sites")
    values, ops = _changes(body, structure)
    if values or ops:
        changed = replace(structure.site, **values, updated_at=now_iso())
        ops.append(site_store.update_site_op(structure.site, changed))
        taken = f"basename: {body.basename!r} is taken by another site of the organization"
        commit_change(ops, taken=("basename", taken))
    return get_site(caller, org_id, site_id)


def _changes(body: UpdateSite, structure: Structure) -> tuple[dict[str, Any], list[Op]]:
    """The site's fields that change (`Site` attribute: new value, None removing it) and the other
    writes that go with them."""
    site, sent = structure.site, body.model_fields_set
    simple = (("title", "title"), ("visibility", "visibility"), ("agentsContext", "agents_context"))
    values: dict[str, Any] = {attr: getattr(body, field) for field, attr in simple if field in sent}
    if body.adaptiveContent is not None:
        values["adaptive_content"] = body.adaptiveContent.enabled
    if "proxy" in sent:
        values["proxy"] = body.proxy
    ops: list[Op] = []
    if body.basename is not None and body.basename != site.basename:
        values["basename"] = body.basename
        ops.append(site_store.basename_guard_op(site.org_id, body.basename, site.id))
        if site.basename:
            ops.append(site_store.release_basename_op(site.org_id, site.basename))
    if body.defaultSiteSection is not None:
        if structure.section(body.defaultSiteSection) is None:
            raise BadRequest(f"defaultSiteSection: no section {body.defaultSiteSection!r} in this site")
        values["default_section"] = body.defaultSiteSection
    if body.defaultSiteSpace is not None:
        ops += _default_site_space(structure, body.defaultSiteSpace, values)
    return values, ops


def _default_site_space(structure: Structure, site_space_id: str, values: dict[str, Any]) -> list[Op]:
    """The default site space of the site's root, or (on a site with sections) of its default section:
    one more update of that section."""
    default_section = structure.default_section()
    if "default_section" in values:
        default_section = structure.section(str(values["default_section"]))
    where = default_section.id if default_section else None
    chosen = structure.site_space(site_space_id)
    if chosen is None or chosen.section != where:
        place = "the default section" if where else "the site's root"
        raise BadRequest(f"defaultSiteSpace: {NO_SITE_SPACE} in {place}")
    if default_section is None:
        values["default_site_space"] = chosen.id
        return []
    if default_section.default_site_space == chosen.id:
        return []
    return [section_store.update_section_op(default_section,
                                            replace(default_section, default_site_space=chosen.id))]


def set_published(caller: Caller, org_id: str, site_id: str, published: bool) -> SiteResult:
    context = open_site(caller, org_id, site_id)
    context.require_admin("publish or unpublish sites")
    if context.site.published != published:
        op = site_store.update_site_op(context.site, replace(context.site, published=published,
                                                             updated_at=now_iso()))
        commit_change(op)
    return get_site(caller, org_id, site_id)


def delete_site(caller: Caller, org_id: str, site_id: str) -> None:
    """Everything the site owns goes first, the site item last, so a delete cut short is finished by the
    next one (the site still reads as there until then). A missing site is a 204 as well."""
    access = org_access(org_id, caller)
    access.require("admin", "delete sites")
    site = site_store.get_site(site_id)
    if site is None or site.org_id != org_id:
        return
    site_store.delete_partition_items(site.id)
    Transaction(site_store.delete_site_ops(site)).commit()
    # Its integration setups, which live in the integrations' items. Imported here: the integrations'
    # domain is a cold-start cost SitesFunction's other routes do not need (bench/README.md, "Cold start").
    from bindery.domain.integrations.content_installs import content_gone
    content_gone("site", [site.id])
