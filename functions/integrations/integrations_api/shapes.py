"""The domain's integration views handed to their wire shapes (one place for every router)."""

from __future__ import annotations

from bindery.api.wire.integrations import (
    installation_to_wire,
    integration_to_wire,
    site_installation_to_wire,
    space_installation_to_wire,
)
from bindery.api.wire.models.integrations import (
    InstalledIntegration,
    Integration,
    IntegrationSiteInstallation,
    IntegrationSpaceInstallation,
)
from bindery.domain.integrations.content_installs import ContentInstallationView
from bindery.domain.integrations.installations import InstalledIntegration as InstalledView
from bindery.domain.integrations.records import IntegrationView


def integration(view: IntegrationView) -> Integration:
    return integration_to_wire(view.integration, owner=view.owner, owner_role=view.owner_role,
                               icon_url=view.icon_url, preview_urls=view.preview_urls)


def installed(found: InstalledView) -> InstalledIntegration:
    return InstalledIntegration(installation=installation_to_wire(found.installation),
                                integration=integration(found.integration))


def space_installation(view: ContentInstallationView) -> IntegrationSpaceInstallation:
    return space_installation_to_wire(view.setup, space=view.space, role=view.space_role)


def site_installation(view: ContentInstallationView) -> IntegrationSiteInstallation:
    return site_installation_to_wire(view.setup, site=view.site, org=view.org)
