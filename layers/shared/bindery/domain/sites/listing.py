"""ORG/sites: the organization's sites in creation order, with the spec's filters.

A page is one GSI1 Query (title, published and type filters narrow it: a page may be short and still
have a next one); the first page counts the filtered listing with one `Select=COUNT` Query and its
cursor carries the count. With `space`, the sites come from that space's site spaces (one GSI2 Query,
every one of them: a space is on few sites) and one BatchGetItem of their sites, so the count is exact
from the same reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import org_access
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.store import site_spaces as site_space_store
from bindery.store import sites as site_store
from bindery.store.orgs import Organization
from bindery.store.sites import Site, SiteFilter


@dataclass(frozen=True)
class SitesFound:
    listing: Listing[Site]
    org: Organization


def _keeps(site: Site, title: str | None, published: bool | None, types: list[str] | None) -> bool:
    return ((not title or title.lower() in site.title.lower())
            and (published is None or site.published == published) and (not types or site.type in types))


def list_sites(caller: Caller, org_id: str, *, space: str | None, title: str | None, published: bool | None,
               types: list[str] | None, limit: int, page: str | None) -> SitesFound:
    access = org_access(org_id, caller)
    access.require("read", "read the organization's sites")
    scope = f"sites:{org_id}:{space or ''}:{title or ''}:{published}:{','.join(sorted(types or []))}"
    start = open_page(scope, page)
    if space is not None:
        found = _sites_of_space(org_id, space, scope, start.start, limit=limit,
                                keeps=lambda site: _keeps(site, title, published, types))
        return SitesFound(found, access.org)
    narrow = SiteFilter(title, published, tuple(types or ()))
    result = site_store.org_sites_page(org_id, limit, start.start, narrow)
    sites = [Site.from_item(item) for item in result.items]
    count = start.count if start.count is not None else site_store.org_sites_count(org_id, narrow)
    return SitesFound(Listing(sites, next_page(scope, result.last_key, count), count), access.org)


def _sites_of_space(org_id: str, space_id: str, scope: str, start: dict[str, Any] | None, *, limit: int,
                    keeps: Any) -> Listing[Site]:
    site_ids = sorted({ss.site_id for ss in site_space_store.space_site_spaces(space_id)
                       if ss.org_id == org_id})
    found = site_store.get_sites(site_ids)
    sites = [found[site_id] for site_id in site_ids if site_id in found and keeps(found[site_id])]
    after = (start or {}).get("after")
    rest = [site for site in sites if after is None or site.id > after]
    shown = rest[:limit]
    cursor = next_page(scope, {"after": shown[-1].id} if shown and len(rest) > limit else None)
    return Listing(shown, cursor, len(sites))
