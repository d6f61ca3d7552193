"""Integrations and their installations on the wire (bindery.api.responses.integrations), each from what
the domain found of it (bindery.domain.integrations' views, read through the protocols below: api.wire
imports no domain); their setups on spaces and sites are in api/wire/content_installations.py.

`urls.publicEndpoint` is where the integration's handlers would be reached through Bindery:
`{api}/integrations/{name}` (and `/installations/{id}` below it); `assets` is the prefix its icon and
images are served under. Secrets are never part of any shape.
"""

from __future__ import annotations

from typing import Any, Protocol

from bindery.api.responses.integrations import (
    InstalledIntegration,
    Integration,
    IntegrationEvent,
    IntegrationEventWithTrace,
    IntegrationInstallation,
)
from bindery.api.wire.organizations import org_fields
from bindery.api.wire.urls import api_url, app_url
from bindery.store.integration_events import Event
from bindery.store.integration_installations import Installation
from bindery.store.integrations import Integration as IntegrationRecord
from bindery.store.orgs import Organization


class IntegrationShown(Protocol):
    """An integration with its owner: what bindery.domain.integrations.records.IntegrationView holds."""

    @property
    def integration(self) -> IntegrationRecord: ...
    @property
    def owner(self) -> Organization: ...
    @property
    def owner_role(self) -> str | None: ...  # the caller's (its admins administer the integration)
    @property
    def icon_url(self) -> str | None: ...
    @property
    def preview_urls(self) -> list[str]: ...


class InstalledShown(Protocol):
    """An installation with its integration: what bindery.domain.integrations.installations'
    InstalledIntegration holds."""

    @property
    def installation(self) -> Installation: ...
    @property
    def integration(self) -> IntegrationShown: ...


def _owner(owner: Organization, role: str | None) -> dict[str, Any]:
    """The owner organization; to someone outside it, without what only its members see (the email
    domains that let people join it, its default content)."""
    shown = org_fields(owner, role)
    if role is None:
        shown["emailDomains"] = []
        shown.pop("defaultContent", None)
    return shown


def integration_to_wire(view: IntegrationShown) -> Integration:
    integration, owner, owner_role, icon_url = view.integration, view.owner, view.owner_role, view.icon_url
    name = integration.name
    urls: dict[str, Any] = {"location": api_url(f"/integrations/{name}"),
                            "app": app_url(f"/integrations/{name}"),
                            "assets": api_url(f"/integrations/{name}/assets"),
                            "publicEndpoint": api_url(f"/integrations/{name}")}
    if icon_url:
        urls["icon"] = icon_url
    body: dict[str, Any] = {
        "object": "integration", "name": name, "version": integration.version, "title": integration.title,
        "previewImages": view.preview_urls, "target": integration.target, "verified": False,
        "visibility": integration.visibility, "scopes": integration.scopes,
        "categories": integration.categories, "externalLinks": integration.external_links,
        "owner": _owner(owner, owner_role), "urls": urls,
        "permissions": {"admin": owner_role == "admin"},
        "blocks": integration.blocks, "contentSources": integration.content_sources,
        "configurations": integration.configurations,
    }
    for key, value in (("description", integration.description), ("summary", integration.summary),
                       ("contentSecurityPolicy", integration.content_security_policy)):
        if value is not None:
            body[key] = value
    return Integration.model_validate(body)


def installation_to_wire(installation: Installation) -> IntegrationInstallation:
    path = f"/integrations/{installation.integration}/installations/{installation.id}"
    return IntegrationInstallation.model_validate({
        "id": installation.id, "status": installation.status, "space_selection": installation.space_selection,
        "site_selection": installation.site_selection, "spaces": installation.spaces,
        "configuration": installation.configuration, "createdAt": installation.created_at,
        "updatedAt": installation.updated_at, "externalIds": installation.external_ids,
        "urls": {"location": api_url(path), "app": app_url(f"/o/{installation.org_id}{path}"),
                 "publicEndpoint": api_url(path)},
        "target": {"organization": installation.org_id}})


def installed_to_wire(found: InstalledShown) -> InstalledIntegration:
    return InstalledIntegration(installation=installation_to_wire(found.installation),
                                integration=integration_to_wire(found.integration))


def event_to_wire(event: Event) -> IntegrationEvent:
    """`status` is `success` once an attempt delivered it, `failed` otherwise: the official enum has no
    pending value (the trace shows whether any attempt was made yet)."""
    return IntegrationEvent(id=event.id, integrationId=event.integration,
                            installationId=event.installation_id, createdAt=event.created_at,
                            payload=event.payload,
                            status="success" if event.delivery == "success" else "failed")


def event_with_trace(event: Event) -> IntegrationEventWithTrace:
    shown = event_to_wire(event).model_dump(exclude_none=True)
    return IntegrationEventWithTrace.model_validate({"event": shown, "trace": {"logs": event.logs}})
