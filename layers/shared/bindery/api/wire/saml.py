"""SAML providers on the wire (models in bindery.api.responses.saml).

The spec requires `ssoURL`, `entityID` and `certificate` of every provider, while a `pending` one has
not been given them yet: until set, `entityID` and `certificate` are empty strings and `ssoURL`, which
must be a URI, is `about:blank` (docs/sso.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bindery.api.responses.saml import OrganizationSAMLProvider, OrganizationSSOProviderLogins
from bindery.api.wire.teams import team_fields
from bindery.api.wire.urls import api_base, api_url
from bindery.engines.saml.endpoints import service_endpoints
from bindery.store.saml import Provider
from bindery.store.teams import Team

UNSET_URL = "about:blank"  # a URI that leads nowhere, for a provider not given its SSO URL yet


def provider_to_wire(provider: Provider, team: Team | None) -> OrganizationSAMLProvider:
    service = service_endpoints(api_base(), provider.id)
    body: dict[str, Any] = {
        "object": "saml-provider", "id": provider.id, "label": provider.label,
        "ssoURL": provider.sso_url or UNSET_URL, "entityID": provider.entity_id or "",
        "certificate": provider.certificate or "", "defaultRole": provider.default_role,
        "createdAt": provider.created_at, "status": "active" if provider.active else "pending",
        "service": {"acsURL": service.acs_url, "startURL": service.start_url, "entityID": service.entity_id},
        "urls": {"location": api_url(f"/orgs/{provider.org_id}/saml/{provider.id}")},
    }
    if team is not None:
        # Only organization admins read providers, and they manage every team.
        body["defaultTeam"] = team_fields(team, admin=True, view=True)
    return OrganizationSAMLProvider.model_validate(body)


def logins_to_wire(providers: Iterable[Provider]) -> OrganizationSSOProviderLogins:
    """The organization's login choices: each provider with where its login starts."""
    return OrganizationSSOProviderLogins.model_validate({"items": [
        {"id": provider.id, "label": provider.label,
         "startURL": service_endpoints(api_base(), provider.id).start_url} for provider in providers]})
