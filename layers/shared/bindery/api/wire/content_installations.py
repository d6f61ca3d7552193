"""An installation's setups on spaces and sites on the wire (bindery.api.responses.content_installations),
from what bindery.domain.integrations.content_installs found of them (read through the protocol below:
api.wire imports no domain). Apart from api/wire/integrations.py, since extended they show the Space or
the Site, whose mappers only installation management needs."""

from __future__ import annotations

from typing import Any, Protocol

from bindery.api.responses.content_installations import (
    IntegrationSiteInstallation,
    IntegrationSpaceInstallation,
)
from bindery.api.wire.sites import site_to_wire
from bindery.api.wire.spaces import space_fields
from bindery.api.wire.urls import api_url
from bindery.store.integration_installations import ContentInstallation
from bindery.store.orgs import Organization
from bindery.store.sites import Site
from bindery.store.spaces import Space


class ContentInstallationShown(Protocol):
    """A space or site installation; extended, with the space (and the caller's role on it) or the site
    (and its organization): what bindery.domain.integrations.content_installs' ContentInstallationView
    holds."""

    @property
    def setup(self) -> ContentInstallation: ...
    @property
    def space(self) -> Space | None: ...
    @property
    def space_role(self) -> str | None: ...
    @property
    def site(self) -> Site | None: ...
    @property
    def org(self) -> Organization | None: ...


def _content_base(setup: ContentInstallation) -> dict[str, Any]:
    path = (f"/integrations/{setup.integration}/installations/{setup.installation_id}/"
            f"{setup.kind}s/{setup.content_id}")
    return {"integration": setup.integration, "installation": setup.installation_id, "status": setup.status,
            "configuration": setup.configuration, "externalIds": setup.external_ids,
            "urls": {"location": api_url(path), "publicEndpoint": api_url(path)}}


def space_installation_to_wire(view: ContentInstallationShown) -> IntegrationSpaceInstallation:
    """The space as its id, or (extended) as the Space shape with the caller's role on it."""
    space = view.space
    shown: Any = space_fields(space, view.space_role) if space is not None else view.setup.content_id
    return IntegrationSpaceInstallation.model_validate({**_content_base(view.setup), "space": shown})


def site_installation_to_wire(view: ContentInstallationShown) -> IntegrationSiteInstallation:
    """The site as its id, or (extended) as the Site shape."""
    site, org = view.site, view.org
    shown: Any = site_to_wire(site, org) if site is not None and org is not None else view.setup.content_id
    return IntegrationSiteInstallation.model_validate({**_content_base(view.setup), "site": shown})
