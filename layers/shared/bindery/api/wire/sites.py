"""Sites and site spaces on the wire (models in bindery.api.wire.models.sites)."""

from __future__ import annotations

from typing import Any

from bindery import stack_urls
from bindery.api.wire.spaces import space_to_wire
from bindery.api.wire.urls import api_url, app_url
from bindery.store.orgs import Organization
from bindery.store.site_sections import Section, SectionGroup
from bindery.store.site_settings import PublishingAuth
from bindery.store.site_spaces import SiteSpace
from bindery.store.sites import Site
from bindery.store.spaces import Space


def published_url(site: Site, org: Organization) -> str:
    """Where readers find the site: its custom hostname, else its proxy origin, else the sites address
    (`BINDERY_SITES_URL`), the organization's hostname (a name like `acme`; its id when it has none) and
    the site's basename (its id when it has none). docs/sites.md."""
    if site.hostname:
        return f"https://{site.hostname}"
    if site.proxy:
        return f"https://{site.proxy}"
    return f"{stack_urls.sites_base()}/{org.hostname or org.id}/{site.basename or site.id}"


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


def published_at(site: Site, org: Organization, path: str) -> dict[str, Any]:
    """`urls` of a part of a site: its published address while the site is published."""
    if not site.published:
        return {}
    base = published_url(site, org)
    return {"published": f"{base}/{path}" if path else base}


# What a reader with no role on the space (a visitor of a published site) is not shown of it: where it
# sits among the organization's collections, and its Git Sync and visitor-authentication settings.
HIDDEN_FROM_VISITORS = ("parent", "gitSync", "visitorAuth")
# What the spec requires of a space but a visitor is not told (issue 39): how its work goes (comments and
# change requests counted) and which revision is current, which published content does not need (the
# site's pages are read from the site, never through the space). Neutral values: docs/decisions.md.
WITHHELD_FROM_VISITORS = {"comments": 0, "changeRequests": 0, "changeRequestsOpen": 0,
                          "changeRequestsDraft": 0, "revision": ""}


def _space_as_seen(space: Space, role: str | None) -> dict[str, Any]:
    body = space_to_wire(space, role)
    if role is None:
        for key in HIDDEN_FROM_VISITORS:
            body.pop(key, None)
        body.update(WITHHELD_FROM_VISITORS)
    return body


def site_space_to_wire(site_space: SiteSpace, space: Space, role: str | None, site: Site, *,
                       org: Organization, default: bool, published_path: str) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "site-space", "id": site_space.id, "path": site_space.path,
        "space": _space_as_seen(space, role), "title": space.title, "default": default,
        "hasAdvancedCustomizationFeature": False, "urls": published_at(site, org, published_path),
    }
    if site_space.section:
        body["section"] = site_space.section
    if site_space.condition:
        body["condition"] = site_space.condition
    return body


def section_to_wire(section: Section, site: Site, *, org: Organization, default: bool, published_path: str,
                    site_spaces: list[dict[str, Any]]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "site-section", "id": section.id, "title": section.title, "default": default,
        "path": section.path, "siteSpaces": site_spaces, "urls": published_at(site, org, published_path),
    }
    for name, value in (("description", section.description), ("condition", section.condition),
                        ("sectionGroup", section.group), ("icon", section.icon)):
        if value is not None:
            body[name] = value
    return body


def section_group_to_wire(group: SectionGroup, *, children: list[dict[str, Any]],
                          sections: list[dict[str, Any]]) -> dict[str, Any]:
    """`children` are the sections and groups right under the group; `sections` (deprecated by the spec)
    every section under it."""
    body: dict[str, Any] = {"object": "site-section-group", "id": group.id, "title": group.title,
                            "sections": sections, "children": children}
    if group.parent is not None:
        body["sectionGroup"] = group.parent
    if group.icon is not None:
        body["icon"] = group.icon
    return body


def share_link_to_wire(*, link_id: str, name: str, key: str, active: bool, created_at: str, site: Site,
                       org: Organization) -> dict[str, Any]:
    """A share link's address is the site's published address with the key as `shareKey`."""
    return {"object": "share-link", "id": link_id, "createdAt": created_at, "name": name, "active": active,
            "urls": {"published": f"{published_url(site, org)}?shareKey={key}"}}


def published_site_to_wire(site: Site, org: Organization, *, sections: bool, structure: list[dict[str, Any]],
                           settings: dict[str, Any], site_space_settings: dict[str, dict[str, Any]],
                           scripts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"object": "published-content-site", "site": site_to_wire(site, org),
            "structure": {"type": "sections" if sections else "siteSpaces", "structure": structure},
            "customizations": {"site": settings, "siteSpaces": site_space_settings}, "scripts": scripts}


def publishing_auth_to_wire(auth: PublishingAuth) -> dict[str, Any]:
    body: dict[str, Any] = {"object": "publishing-auth", "backend": auth.backend,
                            "privateKey": auth.private_key}
    if auth.fallback_url is not None:
        body["fallbackURL"] = auth.fallback_url
    if auth.integration is not None:
        body["integration"] = auth.integration
    return body
