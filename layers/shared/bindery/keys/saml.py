"""Keys of SAML single sign-on (docs/sso.md, docs/data-model.md).

A provider has a partition of its own, so the protocol endpoints (`/saml/{samlProviderId}/…`, which
name no organization) read it with one GetItem; the organization's providers are listed through GSI1.
An AuthnRequest Bindery sent and an assertion it accepted are one item each, expiring through the
table's TTL (`expiresAt`): the first is consumed by the login it starts (single use), the second refuses
the same assertion twice (replay).
"""

from __future__ import annotations

from bindery.keys import Key


def provider(provider_id: str) -> Key:
    return {"PK": f"SAML#{provider_id}", "SK": "SAML"}


def org_providers_partition(org_id: str) -> str:
    """GSI1 of provider items: the organization's providers, by id (creation order)."""
    return f"ORG#{org_id}#SAML"


def org_providers_gsi(org_id: str, provider_id: str) -> dict[str, str]:
    return {"GSI1PK": org_providers_partition(org_id), "GSI1SK": provider_id}


def authn_request(request_id: str) -> Key:
    return {"PK": f"SAMLREQUEST#{request_id}", "SK": "SAMLREQUEST"}


def assertion(provider_id: str, assertion_id: str) -> Key:
    return {"PK": f"SAMLASSERTION#{provider_id}#{assertion_id}", "SK": "SAMLASSERTION"}


def sso_identity(org_id: str, email: str) -> Key:
    """The account an organization's SSO identity (the email its IdPs assert, lower-cased) is bound to:
    written by that identity's first login or by a link made while signed in (docs/sso.md, "Accounts")."""
    return {"PK": f"SSOIDENTITY#{org_id}#{email.lower()}", "SK": "SSOIDENTITY"}
