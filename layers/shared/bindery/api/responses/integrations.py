"""Integrations and their installations, as the reference spec declares them (Integration,
IntegrationInstallation); an installation's setups on spaces and sites, which show a Space or a Site, are
in api/responses/content_installations.py."""

from __future__ import annotations

from typing import Any, Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import JSONObject, Timestamp
from bindery.api.responses.organizations import Organization
from bindery.requests.integration_kinds import Category, Scope, Selection, Target, Visibility

InstallationStatus = Literal["active", "pending", "paused"]


class IntegrationUrls(WireModel):
    location: str
    icon: Omitted[str] = None
    app: str
    assets: str
    publicEndpoint: str


class IntegrationPermissions(WireModel):
    admin: bool


class IntegrationLink(WireModel):
    url: str
    label: str


class Integration(WireModel):
    object: Literal["integration"]
    name: str
    version: int
    title: str
    description: Omitted[str] = None
    summary: Omitted[str] = None
    previewImages: list[str]
    target: Target
    verified: bool
    visibility: Visibility
    scopes: list[Scope]
    categories: list[Category]
    blocks: Omitted[list[JSONObject]] = None
    contentSources: Omitted[list[JSONObject]] = None
    configurations: Omitted[JSONObject] = None
    externalLinks: list[IntegrationLink]
    owner: Organization
    urls: IntegrationUrls
    permissions: IntegrationPermissions
    contentSecurityPolicy: Omitted[str | dict[str, str]] = None


class IntegrationList(ListPage):
    items: list[Integration]


class InstallationUrls(WireModel):
    location: str
    app: str
    publicEndpoint: str


class InstallationTarget(WireModel):
    organization: str


class IntegrationInstallation(WireModel):
    id: str
    status: InstallationStatus
    space_selection: Selection
    site_selection: Selection
    spaces: int
    configuration: dict[str, Any]
    createdAt: Timestamp
    updatedAt: Timestamp
    urls: InstallationUrls
    externalIds: list[str]
    target: InstallationTarget


class IntegrationInstallationList(ListPage):
    items: list[IntegrationInstallation]


class InstalledIntegration(WireModel):
    installation: IntegrationInstallation
    integration: Integration


class InstalledIntegrationList(ListPage):
    items: list[InstalledIntegration]


class IntegrationInstallationToken(WireModel):
    """The spec's APITemporaryToken."""

    token: str


class IntegrationEvent(WireModel):
    id: str
    integrationId: str
    installationId: Omitted[str] = None
    createdAt: Timestamp
    payload: JSONObject
    status: Literal["success", "failed"]


class IntegrationSigningSecrets(WireModel):
    """A Bindery extension (GET /integrations/{name}/signing-secrets): the secret Bindery generated for
    the integration, shaped as the official `IntegrationEnvironment.signingSecrets` hands it to an
    integration's code on GitBook's runtime."""

    integration: str


class IntegrationEventList(ListPage):
    items: list[IntegrationEvent]


class IntegrationEventLog(WireModel):
    message: str
    timestamp: Timestamp
    level: Literal["debug", "info", "warn", "error"]


class IntegrationEventTrace(WireModel):
    logs: list[IntegrationEventLog]


class IntegrationEventWithTrace(WireModel):
    event: IntegrationEvent
    trace: IntegrationEventTrace
