"""An installation's setups on spaces and sites, as the reference spec declares them
(IntegrationSpaceInstallation, IntegrationSiteInstallation): apart from api/responses/integrations.py,
since extended they show the Space or the Site, whose shapes only installation management answers with
(an integration's own shapes name neither)."""

from __future__ import annotations

from typing import Any

from bindery.api.responses.base import ListPage, WireModel
from bindery.api.responses.integrations import InstallationStatus
from bindery.api.responses.sites import Site
from bindery.api.responses.spaces import Space


class ContentInstallationUrls(WireModel):
    location: str
    publicEndpoint: str


class IntegrationSpaceInstallation(WireModel):
    integration: str
    installation: str
    status: InstallationStatus
    configuration: dict[str, Any]
    externalIds: list[str]
    urls: ContentInstallationUrls
    space: str | Space


class IntegrationSpaceInstallationList(ListPage):
    items: list[IntegrationSpaceInstallation]


class IntegrationSiteInstallation(WireModel):
    integration: str
    installation: str
    status: InstallationStatus
    configuration: dict[str, Any]
    externalIds: list[str]
    urls: ContentInstallationUrls
    site: str | Site


class IntegrationSiteInstallationList(ListPage):
    items: list[IntegrationSiteInstallation]
