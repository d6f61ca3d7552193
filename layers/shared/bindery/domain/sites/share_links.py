"""Share links of a site: named keys that let people outside the organization read a site published
with `share-link` visibility (docs/sites.md). Organization admins manage them; deactivating or deleting
a link revokes its key at once (every read checks the links it reads with the structure)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import org_access
from bindery.domain.sites.records import open_structure
from bindery.platform.clock import now_iso
from bindery.platform.errors import Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.requests.sites import CreateShareLink, UpdateShareLink
from bindery.store import Transaction, TransactionConflict, site_structure
from bindery.store import site_settings as settings_store
from bindery.store.orgs import Organization
from bindery.store.site_settings import ShareLink
from bindery.store.sites import Site

NO_SHARE_LINK = "No matching share link"


@dataclass(frozen=True)
class ShareLinkView:
    link: ShareLink
    site: Site
    org: Organization


def list_share_links(caller: Caller, org_id: str, site_id: str, *,
                     limit: int, page: str | None) -> Listing[ShareLinkView]:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "manage share links")
    links = structure.share_links
    scope = f"share-links:{site_id}"
    start = open_page(scope, page)
    after = (start.start or {}).get("after")
    rest = [link for link in links if after is None or link.id > after]
    items = rest[:limit]
    cursor = next_page(scope, {"after": items[-1].id} if len(rest) > limit else None)
    return Listing([ShareLinkView(link, structure.site, access.org) for link in items], cursor, len(links))


def create_share_link(caller: Caller, org_id: str, site_id: str, body: CreateShareLink) -> ShareLinkView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "manage share links")
    link = ShareLink(id=new_id(), site_id=site_id, name=body.name, key=secrets.token_urlsafe(24),
                     active=True, created_at=now_iso())
    try:
        Transaction(settings_store.site_check_op(site_id), settings_store.put_share_link_op(link)).commit()
    except TransactionConflict:
        raise NotFound("No matching site") from None
    return ShareLinkView(link, structure.site, access.org)


def _link(caller: Caller, org_id: str, site_id: str, share_link_id: str) -> ShareLinkView:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "manage share links")
    found = next((link for link in structure.share_links if link.id == share_link_id), None)
    if found is None:
        raise NotFound(NO_SHARE_LINK)
    return ShareLinkView(found, structure.site, access.org)


def update_share_link(caller: Caller, org_id: str, site_id: str, share_link_id: str, body: UpdateShareLink
                      ) -> ShareLinkView:
    view = _link(caller, org_id, site_id, share_link_id)
    changed = replace(view.link, name=view.link.name if body.name is None else body.name,
                      active=view.link.active if body.active is None else body.active)
    if changed != view.link:
        try:
            Transaction(settings_store.update_share_link_op(view.link, changed)).commit()
        except TransactionConflict:
            raise Conflict("The share link was deleted while this request ran") from None
    view.link.name, view.link.active = changed.name, changed.active
    return view


def delete_share_link(caller: Caller, org_id: str, site_id: str, share_link_id: str) -> None:
    """204 when the link (or the site) is missing too."""
    access = org_access(org_id, caller)
    access.require("admin", "manage share links")
    structure = site_structure.structure(site_id)
    if structure is None or structure.site.org_id != org_id:
        return
    found = next((link for link in structure.share_links if link.id == share_link_id), None)
    if found is not None:
        Transaction(settings_store.delete_share_link_op(found)).commit()
