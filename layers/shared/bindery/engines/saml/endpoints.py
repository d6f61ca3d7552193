"""Where a provider's service-provider endpoints live, from the deployment's API base URL.

They name the provider, not the organization: the IdP posts to the ACS URL without credentials, and
the provider's id is all the ACS needs to find its organization and certificate (one GetItem). The
entity ID is the metadata URL, as most IdPs expect (Keycloak and Okta read the SP's metadata there).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServiceEndpoints:
    acs_url: str
    start_url: str
    entity_id: str


def service_endpoints(api_base: str, provider_id: str) -> ServiceEndpoints:
    root = f"{api_base.rstrip('/')}/saml/{provider_id}"
    return ServiceEndpoints(acs_url=f"{root}/acs", start_url=f"{root}/start", entity_id=f"{root}/metadata")
