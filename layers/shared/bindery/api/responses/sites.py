"""Site and SiteSpace, as the reference spec declares them."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import Timestamp
from bindery.api.responses.spaces import Space
from bindery.requests.site_kinds import SiteAgentsContext, SiteType, SiteVisibility


class SiteUrls(WireModel):
    location: str
    app: str
    published: Omitted[str] = None


class SiteProxy(WireModel):
    origin: str
    target: str


class SiteAdaptiveContent(WireModel):
    enabled: bool


class SiteFeature(WireModel):
    id: str
    plan: SiteType
    frozen: bool
    customizations: Omitted[list[str]] = None


class Site(WireModel):
    object: Literal["site"]
    id: str
    type: SiteType
    title: str
    hostname: Omitted[str] = None
    basename: Omitted[str] = None
    proxy: Omitted[SiteProxy] = None
    visibility: SiteVisibility
    published: bool
    siteSpaces: int
    createdAt: Timestamp
    adaptiveContent: Omitted[SiteAdaptiveContent] = None
    agentsContext: SiteAgentsContext
    features: list[SiteFeature]
    urls: SiteUrls


class SiteList(ListPage):
    items: list[Site]


class SiteSpaceUrls(WireModel):
    published: Omitted[str] = None


class SiteSpace(WireModel):
    object: Literal["site-space"]
    id: str
    path: str
    section: Omitted[str] = None
    space: Space
    title: str
    default: bool
    condition: Omitted[str] = None
    hasAdvancedCustomizationFeature: bool
    urls: SiteSpaceUrls


class SiteSpaceList(ListPage):
    items: list[SiteSpace]
