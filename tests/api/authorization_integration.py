"""A's integration in the authorization matrices' world (tests/api/authorization_world.py): a private
integration Alice publishes for A, installed on A, A's space and A's site, with its first event and an
installation token (docs/integrations.md)."""

from __future__ import annotations

from typing import Any

from tests.api.integration_support import publish_body
from tests.client import ApiClient, Identity


def created(reply: Any) -> Any:
    assert 200 <= reply.status < 300, (reply.status, reply.body)
    return reply.json()


VICTIM_INTEGRATION = "victim-integration"
# Scopes of A's integration: the read scopes are what its installation token may read with (A's space,
# A's site, A's OpenAPI specs); `site:script:inject` puts its script on A's published site (and grants no
# endpoint). The write scopes are left to test_installation_tokens.py and test_installation_token_scopes.py:
# the matrix's world must read the same after the token called everything.
VICTIM_SCOPES = ["space:content:read", "site:script:inject", "site:metadata:read", "site:adaptive:read",
                 "openapi:read"]


def victim_publish_body(org_id: str) -> dict[str, Any]:
    """A's private integration as Alice publishes it (again: the same script, so the site's script URL
    stays; without `secrets`, which a publish keeps)."""
    return publish_body(org_id, title="Victim integration", visibility="private", scopes=VICTIM_SCOPES)


def add_integration(api: ApiClient, alice: Identity, ids: dict[str, str]) -> dict[str, str]:
    """A's private integration, installed on A, its space and its site; its first event and an
    installation token. Answers the secrets (the signing secret it published, the one Bindery generated
    for it, the token)."""
    name, t = VICTIM_INTEGRATION, alice.token
    signing = "whsec-victim-" + "s" * 24
    body = {**victim_publish_body(ids["organizationId"]), "secrets": {"SIGNING_SECRET": signing}}
    created(api.post(f"/integrations/{name}", token=t, body=body))
    ids["integrationName"] = name
    ids["installationId"] = created(api.post(f"/integrations/{name}/installations", token=t,
                                             body={"organization": ids["organizationId"]}))["id"]
    installation = f"/integrations/{name}/installations/{ids['installationId']}"
    created(api.post(installation + "/spaces", token=t, body={"space": ids["spaceId"]}))
    created(api.post(installation + "/sites", token=t, body={"siteId": ids["siteId"]}))
    ids["eventId"] = created(api.get(f"/integrations/{name}/events", token=t))["items"][0]["id"]
    token = created(api.post(installation + "/tokens", token=t))["token"]
    generated = created(api.get(f"/integrations/{name}/signing-secrets", token=t))["integration"]
    return {"signingSecret": signing, "generatedSigningSecret": generated, "installationToken": token}


def integration_paths(ids: dict[str, str]) -> list[str]:
    """Alice's reads of A's integration, its installation, setups and event (the world's snapshot)."""
    integration = f"/integrations/{ids['integrationName']}"
    installation = f"{integration}/installations/{ids['installationId']}"
    return [integration, f"{integration}/installations", f"{integration}/events",
            f"{integration}/events/{ids['eventId']}", installation, f"{installation}/spaces/{ids['spaceId']}",
            f"{installation}/sites/{ids['siteId']}"]
