"""Sites and site spaces on the wire (models in bindery.api.wire.models.sites)."""

from __future__ import annotations

from typing import Any

from bindery.api.wire.spaces import space_to_wire
from bindery.api.wire.urls import api_url, app_url
from bindery.config import settings
from bindery.store.orgs import Organization
from bindery.store.sites import Site, SiteSpace
from bindery.store.spaces import Space


def published_url(site: Site, org: Organization) -> str:
    """Where readers find the site: its custom hostname, else its proxy origin, else the sites address
    (`BINDERY_SITES_URL`), the organization's hostname (a name like `acme`; its id when it has none) and
    the site's basename (its id when it has none). docs/sites.md."""
    if site.hostname:
        return f"https://{site.hostname}"
    if site.proxy:
        return f"https://{site.proxy}"
    return f"{settings().sites_url.rstrip('/')}/{org.hostname or org.id}/{site.basename or site.id}"


def site_to_wire(site: Site, org: Organization) -> dict[str, Any]:
    urls: dict[str, Any] = {"location": api_url(f"/orgs/{site.org_id}/sites/{site.id}"),
                            "app": app_url(f"/o/{site.org_id}/sites/{site.id}")}
    if site.published:
        urls["published"] = published_url(site, org)
    body: dict[str, Any] = {
        "object": "site", "id": site.id, "type": site.type, "title": site.title,
        "visibility": site.visibility, "published": site.published, "siteSpaces": site.site_spaces,
        "createdAt": site.created_at, "adaptiveContent": {"enabled": site.adaptive_content},
        "agentsContext": site.agents_context, "features": [], "urls": urls,
    }
    if site.basename:
        body["basename"] = site.basename
    if site.hostname:
        body["hostname"] = site.hostname
    if site.proxy:
        # The proxy serves the origin's path from the site's own address.
        body["proxy"] = {"origin": site.proxy, "target": published_url(
            Site(**{**site.__dict__, "proxy": None}), org)}
    return body


def site_space_to_wire(site_space: SiteSpace, space: Space, role: str | None, site: Site, *,
                       org: Organization, default: bool) -> dict[str, Any]:
    urls: dict[str, Any] = {}
    if site.published:
        base = published_url(site, org)
        urls["published"] = base if default else f"{base}/{site_space.path}"
    body: dict[str, Any] = {
        "object": "site-space", "id": site_space.id, "path": site_space.path,
        "space": space_to_wire(space, role), "title": space.title, "default": default,
        "hasAdvancedCustomizationFeature": False, "urls": urls,
    }
    if site_space.section:
        body["section"] = site_space.section
    if site_space.condition:
        body["condition"] = site_space.condition
    return body
