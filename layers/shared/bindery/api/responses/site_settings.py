"""Site customization, share links, the adaptive schema and the published profile, as the reference spec
declares them. A customization document's settings are checked against the spec's JSON Schema when
they are written (bindery.domain.sites.schemas); here each top-level setting is typed as the object it is."""

from __future__ import annotations

from typing import Any, Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import Timestamp
from bindery.api.responses.site_sections import SiteSection, SiteSectionGroup
from bindery.api.responses.sites import Site, SiteSpace

Settings = dict[str, Any]


class SiteCustomizationSettings(WireModel):
    title: Omitted[str] = None
    styling: Settings
    internationalization: Settings
    favicon: Settings
    header: Settings
    footer: Settings
    announcement: Omitted[Settings] = None
    themes: Settings
    pdf: Settings
    feedback: Settings
    ai: Settings
    advancedCustomization: Settings
    git: Settings
    pageActions: Settings
    externalLinks: Settings
    pagination: Settings
    trademark: Settings
    privacyPolicy: Settings
    socialPreview: Settings
    insights: Settings


class ShareLinkUrls(WireModel):
    published: Omitted[str] = None


class ShareLink(WireModel):
    object: Literal["share-link"]
    id: str
    createdAt: Timestamp
    name: Omitted[str] = None
    active: Omitted[bool] = None
    urls: ShareLinkUrls


class ShareLinkList(ListPage):
    items: list[ShareLink]


class SiteAdaptiveSchema(WireModel):
    object: Literal["site-adaptive-schema"]
    jsonSchema: Settings
    updatedAt: Timestamp


class SiteAdaptiveTemplateCondition(WireModel):
    description: str
    condition: str


class SiteAdaptiveTemplateConditions(WireModel):
    items: list[SiteAdaptiveTemplateCondition]


class SectionsStructure(WireModel):
    type: Literal["sections"]
    structure: list[SiteSection | SiteSectionGroup]


class SiteSpacesStructure(WireModel):
    type: Literal["siteSpaces"]
    structure: list[SiteSpace]


class PublishedCustomizations(WireModel):
    site: SiteCustomizationSettings
    siteSpaces: dict[str, SiteCustomizationSettings]


class SiteIntegrationScript(WireModel):
    script: str
    contentSecurityPolicy: Omitted[str] = None
    cookies: bool


class PublishedContentSite(WireModel):
    object: Literal["published-content-site"]
    site: Site
    structure: SectionsStructure | SiteSpacesStructure
    customizations: PublishedCustomizations
    scripts: list[SiteIntegrationScript]


class SitePublishingAuth(WireModel):
    object: Literal["publishing-auth"]
    backend: Literal["custom", "integration"]
    privateKey: str
    fallbackURL: Omitted[str] = None
    integration: Omitted[str] = None
