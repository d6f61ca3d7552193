"""Installations of integrations: on an organization, and on its spaces and sites (keys in
bindery.keys.integrations).

    {PK: INTEGRATION#{name}, SK: INSTALLATION#{id}, type: "integration-installation",
     GSI1 ORG#{orgId}#INSTALLATIONS / {name}, id, integration, orgId, status, spaceSelection,
     siteSelection, configuration, externalIds, createdAt, updatedAt, counters spaces, sites}
    {PK: INTEGRATION#{name}, SK: INSTALLEDON#{orgId}, type: "integration-installed-guard", installationId}
    {PK: INTEGRATION#{name}, SK: SPACEINSTALL#{installationId}#{spaceId} | SITEINSTALL#…#{siteId},
     type: "integration-space-installation" | "integration-site-installation",
     GSI1 SPACE#{spaceId}#INTEGRATIONS | SITE#{siteId}#INTEGRATIONS / {name}, integration,
     installationId, contentId, orgId, status, configuration, externalIds, createdAt, updatedAt}

An installation's `spaces` and `sites` counters move in the transactions that add and remove its space
and site installations, conditioned on the installation existing, so they are exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boto3.dynamodb.conditions import Attr

from bindery import keys
from bindery.keys import integrations as integration_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.table import Item

NEW = "attribute_not_exists(PK)"
EXISTS = "attribute_exists(PK)"
COUNTERS = {"space": "spaces", "site": "sites"}


@dataclass
class Installation:
    id: str
    integration: str
    org_id: str
    status: str
    created_at: str
    updated_at: str
    space_selection: str = "selected"
    site_selection: str = "selected"
    configuration: dict[str, Any] = field(default_factory=dict)
    external_ids: list[str] = field(default_factory=list)
    spaces: int = 0
    sites: int = 0

    _FIELDS = ItemFields(
        ("id", "id"), ("integration", "integration"), ("org_id", "orgId"), ("status", "status"),
        ("created_at", "createdAt"), ("updated_at", "updatedAt"), ("space_selection", "spaceSelection"),
        ("site_selection", "siteSelection"), ("configuration", "configuration"),
        ("external_ids", "externalIds"), ("spaces", "spaces"), ("sites", "sites"),
    )

    def to_item(self) -> Item:
        return {**integration_keys.installation(self.integration, self.id),
                **integration_keys.installation_gsi(self.org_id, self.integration),
                "type": "integration-installation", **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Installation:
        return cls(**cls._FIELDS.values(item))


@dataclass
class ContentInstallation:
    """An installation's setup on one space or site (`kind`)."""

    kind: str
    integration: str
    installation_id: str
    content_id: str
    org_id: str
    status: str
    created_at: str
    updated_at: str
    configuration: dict[str, Any] = field(default_factory=dict)
    external_ids: list[str] = field(default_factory=list)

    def key(self) -> dict[str, str]:
        return _content_key(self.kind, self.integration, self.installation_id, self.content_id)

    def to_item(self) -> Item:
        return {**self.key(),
                **integration_keys.content_installation_gsi(self.kind, self.content_id, self.integration),
                "type": f"integration-{self.kind}-installation", "kind": self.kind,
                "integration": self.integration, "installationId": self.installation_id,
                "contentId": self.content_id, "orgId": self.org_id, "status": self.status,
                "createdAt": self.created_at, "updatedAt": self.updated_at,
                "configuration": self.configuration, "externalIds": self.external_ids}

    @classmethod
    def from_item(cls, item: Item) -> ContentInstallation:
        return cls(kind=item["kind"], integration=item["integration"], installation_id=item["installationId"],
                   content_id=item["contentId"], org_id=item["orgId"], status=item["status"],
                   created_at=item["createdAt"], updated_at=item["updatedAt"],
                   configuration=item.get("configuration") or {}, external_ids=item.get("externalIds") or [])


def _content_key(kind: str, name: str, installation_id: str, content_id: str) -> dict[str, str]:
    if kind == "space":
        return integration_keys.space_installation(name, installation_id, content_id)
    return integration_keys.site_installation(name, installation_id, content_id)


# --- reads -------------------------------------------------------------------------------------------------
def get_installation(name: str, installation_id: str) -> Installation | None:
    item = table.get(integration_keys.installation(name, installation_id))
    return Installation.from_item(item) if item else None


def installation_id_on(name: str, org_id: str) -> str | None:
    """The id of the integration's installation on an organization, if it is installed there."""
    item = table.get(integration_keys.installed_guard(name, org_id))
    return str(item["installationId"]) if item else None


def _external(external_id: str | None) -> Any:
    return Attr("externalIds").contains(external_id) if external_id else None


def _installations(name: str, external_id: str | None, limit: int = 100,
                   start_key: dict[str, Any] | None = None) -> table.Query:
    return table.Query(integration_keys.partition(name), prefix=integration_keys.INSTALLATION_PREFIX,
                       limit=limit, start_key=start_key, filter=_external(external_id))


def installations_page(name: str, external_id: str | None, limit: int,
                       start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of the integration's installations (by id), optionally those holding an external id."""
    return _installations(name, external_id, limit, start_key).run()


def installations_count(name: str, external_id: str | None) -> int:
    return _installations(name, external_id).count()


def _org_installations(org_id: str, limit: int = 100, start_key: dict[str, Any] | None = None) -> table.Query:
    return table.Query(integration_keys.org_installations_partition(org_id), index="GSI1", limit=limit,
                       start_key=start_key)


def org_installations_page(org_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of an organization's installations, by integration name."""
    return _org_installations(org_id, limit, start_key).run()


def org_installations_count(org_id: str) -> int:
    return _org_installations(org_id).count()


def get_content_installation(kind: str, name: str, installation_id: str,
                             content_id: str) -> ContentInstallation | None:
    item = table.get(_content_key(kind, name, installation_id, content_id))
    return ContentInstallation.from_item(item) if item else None


def _content_installations(kind: str, name: str, installation_id: str | None, *, external_id: str | None,
                           limit: int = 100, start_key: dict[str, Any] | None = None) -> table.Query:
    return table.Query(integration_keys.partition(name),
                       prefix=integration_keys.content_installations_prefix(kind, installation_id),
                       limit=limit, start_key=start_key, filter=_external(external_id))


def content_installations_page(kind: str, name: str, installation_id: str | None, *, external_id: str | None,
                               limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of the space (or site) installations of an integration, or of one of its installations."""
    return _content_installations(kind, name, installation_id, external_id=external_id, limit=limit,
                                  start_key=start_key).run()


def content_installations_count(kind: str, name: str, installation_id: str | None,
                                external_id: str | None) -> int:
    return _content_installations(kind, name, installation_id, external_id=external_id).count()


def installed_on(kind: str, content_id: str) -> list[ContentInstallation]:
    """Every installation on one space or site (a space holds few): one Query of GSI1, paged."""
    found: list[ContentInstallation] = []
    start: dict[str, Any] | None = None
    while True:
        page = table.Query(integration_keys.content_integrations_partition(kind, content_id), index="GSI1",
                           limit=1000, start_key=start).run()
        found.extend(ContentInstallation.from_item(item) for item in page.items)
        if not page.last_key:
            return found
        start = page.last_key


def installation_content_keys(name: str, installation_id: str) -> list[dict[str, str]]:
    """The keys of every space and site installation of one installation (its uninstall removes them)."""
    found: list[dict[str, str]] = []
    for kind in ("space", "site"):
        start: dict[str, Any] | None = None
        while True:
            page = _content_installations(kind, name, installation_id, external_id=None, limit=1000,
                                          start_key=start).run()
            found.extend({"PK": item["PK"], "SK": item["SK"]} for item in page.items)
            if not page.last_key:
                break
            start = page.last_key
    return found


# --- writes ------------------------------------------------------------------------------------------------
def install_ops(installation: Installation) -> list[table.Op]:
    """The installation, its once-per-organization guard, and a check that the integration still exists."""
    name = installation.integration
    return [
        table.condition_op(integration_keys.integration(name), EXISTS, name="integration"),
        table.put_op({**integration_keys.installed_guard(name, installation.org_id),
                      "type": "integration-installed-guard", "installationId": installation.id}, NEW,
                     name="guard"),
        table.put_op(installation.to_item(), NEW, name="installation"),
    ]


def update_installation_op(installation: Installation, seen_updated_at: str) -> table.Op:
    """The installation's settings (never its counters), if nothing changed it since it was read."""
    return table.update_op(
        integration_keys.installation(installation.integration, installation.id),
        "SET #status = :status, spaceSelection = :spaces, siteSelection = :sites, configuration = :conf,"
        " externalIds = :ids, updatedAt = :now",
        {":status": installation.status, ":spaces": installation.space_selection,
         ":sites": installation.site_selection, ":conf": installation.configuration,
         ":ids": installation.external_ids, ":now": installation.updated_at, ":seen": seen_updated_at},
        "updatedAt = :seen", {"#status": "status"}, name="installation")


def uninstall_ops(installation: Installation) -> list[table.Op]:
    name = installation.integration
    return [
        table.delete_op(integration_keys.installation(name, installation.id), EXISTS, name="installation"),
        table.delete_op(integration_keys.installed_guard(name, installation.org_id), name="guard"),
    ]


def _counter_op(setup: ContentInstallation, step: int) -> table.Op:
    return table.update_op(integration_keys.installation(setup.integration, setup.installation_id),
                           "ADD #counter :n", {":n": step}, EXISTS, {"#counter": COUNTERS[setup.kind]},
                           name="installation")


def install_content_ops(setup: ContentInstallation) -> list[table.Op]:
    return [table.put_op(setup.to_item(), NEW, name="content"), _counter_op(setup, 1)]


def update_content_op(setup: ContentInstallation, seen_updated_at: str) -> table.Op:
    return table.update_op(setup.key(), "SET #status = :status, configuration = :conf, externalIds = :ids,"
                           " updatedAt = :now",
                           {":status": setup.status, ":conf": setup.configuration, ":ids": setup.external_ids,
                            ":now": setup.updated_at, ":seen": seen_updated_at},
                           "updatedAt = :seen", {"#status": "status"}, name="content")


def uninstall_content_ops(setup: ContentInstallation) -> list[table.Op]:
    return [table.delete_op(setup.key(), EXISTS, name="content"), _counter_op(setup, -1)]


def delete_keys(item_keys: list[dict[str, str]]) -> None:
    table.batch_delete(item_keys)


def token_ops(token_hash: str, installation: Installation, *, user_id: str, scopes: list[str],
              created_at: str, expires_at: int) -> list[table.Op]:
    """An installation token (only its hash is stored), while the installation exists; it expires by TTL
    (and reads as gone once past it: `table.is_live`)."""
    item = {**keys.token(token_hash), "type": "installation-token", "userId": user_id,
            "installation": f"{installation.integration}/{installation.id}", "orgId": installation.org_id,
            "scopes": scopes, "createdAt": created_at, table.TTL_ATTRIBUTE: expires_at}
    installation_key = integration_keys.installation(installation.integration, installation.id)
    return [table.condition_op(installation_key, EXISTS, name="installation"),
            table.put_op(item, NEW, name="token")]
