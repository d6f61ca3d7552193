"""Keys of integrations and their installations (docs/integrations.md, docs/data-model.md).

The API names an integration by its name, so an integration is its own partition under that name:
its item, its installations (one per organization, with a guard item making it unique), and its space
and site installations all live there, so everything an unpublish removes is one Query. Every
integration is also on GSI1 (the marketplace listing, by name) and on GSI2 under its owner. The
installations of an organization, and the integrations installed on a space or a site, are GSI1
partitions of their own.
"""

from __future__ import annotations

from bindery.keys import Key

INSTALLATION_PREFIX = "INSTALLATION#"
SPACE_INSTALL_PREFIX = "SPACEINSTALL#"
SITE_INSTALL_PREFIX = "SITEINSTALL#"
ALL_INTEGRATIONS = "INTEGRATIONS"


def partition(name: str) -> str:
    return f"INTEGRATION#{name}"


def integration(name: str) -> Key:
    return {"PK": partition(name), "SK": "INTEGRATION"}


def integration_gsi(name: str, owner_id: str) -> dict[str, str]:
    """GSI1: every integration by name; GSI2: its owner's integrations by name."""
    return {"GSI1PK": ALL_INTEGRATIONS, "GSI1SK": name, "GSI2PK": owner_partition(owner_id), "GSI2SK": name}


def owner_partition(org_id: str) -> str:
    return f"ORG#{org_id}#INTEGRATIONS"


def installation(name: str, installation_id: str) -> Key:
    return {"PK": partition(name), "SK": f"{INSTALLATION_PREFIX}{installation_id}"}


def installed_guard(name: str, org_id: str) -> Key:
    """One item per organization an integration is installed on: an organization installs it once."""
    return {"PK": partition(name), "SK": f"INSTALLEDON#{org_id}"}


def org_installations_partition(org_id: str) -> str:
    """GSI1 of installation items: an organization's installations, by integration name."""
    return f"ORG#{org_id}#INSTALLATIONS"


def installation_gsi(org_id: str, name: str) -> dict[str, str]:
    return {"GSI1PK": org_installations_partition(org_id), "GSI1SK": name}


def space_installation(name: str, installation_id: str, space_id: str) -> Key:
    return {"PK": partition(name), "SK": f"{SPACE_INSTALL_PREFIX}{installation_id}#{space_id}"}


def site_installation(name: str, installation_id: str, site_id: str) -> Key:
    return {"PK": partition(name), "SK": f"{SITE_INSTALL_PREFIX}{installation_id}#{site_id}"}


def content_installations_prefix(kind: str, installation_id: str | None) -> str:
    """`kind` is "space" or "site": every one of the integration's, or one installation's."""
    head = SPACE_INSTALL_PREFIX if kind == "space" else SITE_INSTALL_PREFIX
    return head if installation_id is None else f"{head}{installation_id}#"


def content_integrations_partition(kind: str, content_id: str) -> str:
    """GSI1 of space/site installation items: the integrations installed on a space or a site."""
    return f"{kind.upper()}#{content_id}#INTEGRATIONS"


def content_installation_gsi(kind: str, content_id: str, name: str) -> dict[str, str]:
    return {"GSI1PK": content_integrations_partition(kind, content_id), "GSI1SK": name}


def objects_prefix(name: str) -> str:
    """Every S3 object of an integration (icon, preview images, scripts) is under this prefix."""
    return f"integrations/{name}/"


def asset_object(name: str, digest: str) -> str:
    return f"{objects_prefix(name)}assets/{digest}"


def script_object(name: str, digest: str) -> str:
    return f"{objects_prefix(name)}scripts/{digest}.js"


EVENT_PREFIX = "EVENT#"


def events_partition(name: str) -> str:
    """An integration's events, newest last (event ids are time-ordered): a partition of their own, so
    that listing them never reads the installations."""
    return f"INTEGRATION#{name}#EVENTS"


def event(name: str, event_id: str) -> Key:
    return {"PK": events_partition(name), "SK": f"{EVENT_PREFIX}{event_id}"}
