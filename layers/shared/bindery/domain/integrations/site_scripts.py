"""The scripts a published site loads: one per integration installed on the site whose scopes include
`site:script:inject` (and whose site installation is `active`: a pending one still lacks configuration),
served from the object store with the integration's content security policy; `cookies` when the
integration also has `site:script:cookies`. One Query of the site's installations (GSI1) and one
BatchGetItem of their integrations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.store import integration_installations as install_store

INJECT = "site:script:inject"
COOKIES = "site:script:cookies"


@dataclass(frozen=True)
class SiteScript:
    integration: str
    script: str
    cookies: bool
    content_security_policy: str | None


def policy_header(policy: Any) -> str | None:
    """A policy as the header value it is sent as: a string as given, directives as `name value; …`."""
    if policy is None or isinstance(policy, str):
        return policy
    return "; ".join(f"{name} {value}" for name, value in policy.items())


def site_scripts(site_id: str) -> list[SiteScript]:
    setups = [s for s in install_store.installed_on("site", site_id) if s.status == "active"]
    if not setups:
        return []
    # The integrations' store, for a site with integrations installed: a cold-start cost of every other
    # published site (bench/README.md, "Cold start").
    from bindery.store import integrations as integration_store
    integrations = integration_store.get_integrations([s.integration for s in setups])
    scripts = []
    for name in sorted(integrations):
        integration = integrations[name]
        if INJECT not in integration.scopes:
            continue
        scripts.append(SiteScript(name, integration_store.script_url(name, integration.script_digest),
                                  COOKIES in integration.scopes,
                                  policy_header(integration.content_security_policy)))
    return scripts
