"""SiteSection and SiteSectionGroup, as the reference spec declares them."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.sites import SiteSpace, SiteSpaceUrls


class SiteSection(WireModel):
    object: Literal["site-section"]
    id: str
    title: str
    description: Omitted[str] = None
    default: bool
    path: str
    condition: Omitted[str] = None
    sectionGroup: Omitted[str] = None
    siteSpaces: list[SiteSpace]
    urls: SiteSpaceUrls
    icon: Omitted[str] = None


class SiteSectionGroup(WireModel):
    object: Literal["site-section-group"]
    id: str
    title: str
    sections: list[SiteSection]
    sectionGroup: Omitted[str] = None
    children: list[SiteSection | SiteSectionGroup]
    icon: Omitted[str] = None


class SiteSectionList(ListPage):
    items: list[SiteSection]


class SiteSectionGroupList(ListPage):
    items: list[SiteSectionGroup]
