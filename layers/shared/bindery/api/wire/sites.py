"""A site on the wire (bindery.api.responses.sites), and the addresses its parts are published at.
Its site spaces, sections and groups: bindery.api.wire.site_structure; its settings:
bindery.api.wire.site_settings."""

from __future__ import annotations

from typing import Any

from bindery.api.responses.sites import Site as WireSite
from bindery.api.wire.urls import api_url, app_url
from bindery.platform import stack_urls
from bindery.store.orgs import Organization
from bindery.store.sites import Site


def published_url(site: Site, org: Organization) -> str:
    """Where readers find the site: its custom hostname, else its proxy origin, else the sites address
    (`BINDERY_SITES_URL`), the organization's hostname (a name like `acme`; its id when it has none) and
    the site's basename (its id when it has none). docs/sites.md."""
    if site.hostname:
        return f"https://{site.hostname}"
    if site.proxy:
        return f"https://{site.proxy}"
    return f"{stack_urls.sites_base()}/{org.hostname or org.id}/{site.basename or site.id}"


def site_to_wire(site: Site, org: Organization) -> WireSite:
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
    return WireSite.model_validate(body)


def published_at(site: Site, org: Organization, path: str) -> dict[str, Any]:
    """`urls` of a part of a site: its published address while the site is published."""
    if not site.published:
        return {}
    base = published_url(site, org)
    return {"published": f"{base}/{path}" if path else base}
