"""The two kinds of content an installation is set up on, a space and a site, as their routes name them:
the routes of both, each written out (routes/content_installs.py), share their work, which takes the
kind's names and shapes from here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from bindery.api.responses.content_installations import (
    IntegrationSiteInstallation,
    IntegrationSiteInstallationList,
    IntegrationSpaceInstallation,
    IntegrationSpaceInstallationList,
)
from bindery.api.wire.content_installations import site_installation_to_wire, space_installation_to_wire
from bindery.domain.integrations.content_installs import ContentInstallationView
from bindery.requests.integrations import InstallOnSite, InstallOnSpace

Install = TypeVar("Install", InstallOnSpace, InstallOnSite)
Shown = TypeVar("Shown", IntegrationSpaceInstallation, IntegrationSiteInstallation)
Shelf = TypeVar("Shelf", IntegrationSpaceInstallationList, IntegrationSiteInstallationList)


@dataclass(frozen=True)
class InstallTarget(Generic[Install, Shown, Shelf]):
    kind: Literal["space", "site"]
    id_param: str  # the path variable of one setup: /spaces/{spaceId}
    install: type[Install]  # the body that installs on one
    installed_on: Callable[[Install], str]  # the space or site that body names
    shape: Callable[[ContentInstallationView], Shown]
    shown: type[Shown]  # one setup on the wire
    shelf: type[Shelf]  # a page of setups on the wire

    @property
    def plural(self) -> str:
        return f"{self.kind}s"


SPACE = InstallTarget("space", "spaceId", InstallOnSpace, lambda body: body.space, space_installation_to_wire,
                      IntegrationSpaceInstallation, IntegrationSpaceInstallationList)
SITE = InstallTarget("site", "siteId", InstallOnSite, lambda body: body.siteId, site_installation_to_wire,
                     IntegrationSiteInstallation, IntegrationSiteInstallationList)
