"""Request bodies of the SAML provider endpoints (createOrganizationSAMLProvider,
updateOrganizationSAMLProvider of the spec)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from bindery.requests.common import Body, RoleOrGuest, Url

SAMLProviderLabel = Annotated[str, Field(min_length=1, max_length=30)]
SAMLProviderEntityID = Annotated[str, Field(min_length=1, max_length=1024)]
SAMLProviderCertificate = Annotated[str, Field(min_length=1, max_length=10000)]
TeamRef = Annotated[str, Field(min_length=1, max_length=128)]


class UpdateSAMLProvider(Body):
    """Every field optional; which were sent is `model_fields_set` (only `defaultRole` and
    `defaultTeam` may be null: a guest role, no team)."""

    label: SAMLProviderLabel | None = None
    entityID: SAMLProviderEntityID | None = None
    certificate: SAMLProviderCertificate | None = None
    ssoURL: Url | None = None
    defaultTeam: TeamRef | None = None
    defaultRole: RoleOrGuest = None


class CreateSAMLProvider(UpdateSAMLProvider):
    label: SAMLProviderLabel
