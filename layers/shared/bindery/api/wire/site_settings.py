"""A site's settings on the wire (bindery.api.responses.site_settings): what its published content looks
like, its customization, its adaptive schema, its share links and its publishing auth."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from bindery.api.responses.site_sections import SiteSection, SiteSectionGroup
from bindery.api.responses.site_settings import (
    PublishedContentSite,
    ShareLink,
    SiteAdaptiveSchema,
    SiteAdaptiveTemplateConditions,
    SiteCustomizationSettings,
    SitePublishingAuth,
)
from bindery.api.responses.sites import SiteSpace
from bindery.api.wire.sites import published_url, site_to_wire
from bindery.store.orgs import Organization
from bindery.store.site_settings import AdaptiveSchema, PublishingAuth
from bindery.store.sites import Site


class TemplateConditionShown(Protocol):
    """A condition a page's content may test: what bindery.domain.sites.adaptive.TemplateCondition holds."""

    @property
    def description(self) -> str: ...
    @property
    def condition(self) -> str: ...


def share_link_to_wire(*, link_id: str, name: str, key: str, active: bool, created_at: str, site: Site,
                       org: Organization) -> ShareLink:
    """A share link's address is the site's published address with the key as `shareKey`."""
    return ShareLink.model_validate({
        "object": "share-link", "id": link_id, "createdAt": created_at, "name": name, "active": active,
        "urls": {"published": f"{published_url(site, org)}?shareKey={key}"}})


def customization_to_wire(settings: Mapping[str, Any]) -> SiteCustomizationSettings:
    """A site's (or a site space's) customization, as stored with the defaults filled in."""
    return SiteCustomizationSettings.model_validate(settings)


def published_site_to_wire(site: Site, org: Organization, *,
                           structure: list[SiteSection | SiteSectionGroup] | list[SiteSpace],
                           sections: bool, settings: Mapping[str, Any],
                           site_space_settings: Mapping[str, Mapping[str, Any]],
                           scripts: list[dict[str, Any]]) -> PublishedContentSite:
    """`structure`: the site's top-level sections and groups when it has `sections`, else its site
    spaces at the root."""
    return PublishedContentSite.model_validate({
        "object": "published-content-site", "site": site_to_wire(site, org),
        "structure": {"type": "sections" if sections else "siteSpaces", "structure": structure},
        "customizations": {"site": settings, "siteSpaces": site_space_settings}, "scripts": scripts})


def publishing_auth_to_wire(auth: PublishingAuth) -> SitePublishingAuth:
    body: dict[str, Any] = {"object": "publishing-auth", "backend": auth.backend,
                            "privateKey": auth.private_key}
    if auth.fallback_url is not None:
        body["fallbackURL"] = auth.fallback_url
    if auth.integration is not None:
        body["integration"] = auth.integration
    return SitePublishingAuth.model_validate(body)


def adaptive_schema_to_wire(found: AdaptiveSchema) -> SiteAdaptiveSchema:
    return SiteAdaptiveSchema.model_validate({"object": "site-adaptive-schema",
                                              "jsonSchema": found.json_schema, "updatedAt": found.updated_at})


def template_conditions_to_wire(found: Iterable[TemplateConditionShown]) -> SiteAdaptiveTemplateConditions:
    return SiteAdaptiveTemplateConditions.model_validate(
        {"items": [{"description": c.description, "condition": c.condition} for c in found]})
