"""Installing integrations on organizations, and reading, changing and removing installations.

Who may do what: an installation belongs to its organization, whose admins install, configure and
uninstall it (non-members: 404; other members: 403). The integration's owner (its admins: the
developer) may read its installations, as the integration itself reads them to do its work.
An organization installs an integration once: a guard item keyed by the organization makes a second
install a 409.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess, org_access
from bindery.domain.integrations.configuration import status_for, with_defaults
from bindery.domain.integrations.records import (
    NO_INTEGRATION,
    IntegrationView,
    load,
    owner_admin,
    readable,
    view,
)
from bindery.platform import clock
from bindery.platform.errors import Conflict, Forbidden, NotFound
from bindery.platform.ids import new_id, plausible
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.store import Transaction, TransactionConflict
from bindery.store import integration_installations as install_store
from bindery.store import integrations as integration_store
from bindery.store.integration_installations import Installation
from bindery.store.integrations import Integration

if TYPE_CHECKING:  # request bodies, built by the routes: the reads and listings import none
    from bindery.requests.integrations import UpdateInstallation

NO_INSTALLATION = "No matching installation"


@dataclass(frozen=True)
class InstalledIntegration:
    """An installation with its integration (ORG/installations)."""

    integration: IntegrationView
    installation: Installation


def account_schema(integration: Integration) -> dict[str, Any] | None:
    schema: dict[str, Any] | None = (integration.configurations or {}).get("account")
    return schema


def install(caller: Caller, name: str, org_id: str) -> Installation:
    integration = load(name)
    access = org_access(org_id, caller)
    if integration.visibility == "private" and integration.owner_id != org_id:
        raise NotFound(NO_INTEGRATION)
    access.require("admin", "install integrations")
    now = clock.now_iso()
    schema = account_schema(integration)
    configuration = with_defaults(schema, {})
    installation = Installation(id=new_id(), integration=name, org_id=org_id,
                                status=status_for(schema, configuration, "configuration"), created_at=now,
                                updated_at=now, configuration=configuration)
    # The event queue, which only changes reach: a cold-start cost of the listings (bench/README.md).
    from bindery.domain.integrations import events
    recorded = events.event(name, installation.id, org_id, "installation_setup", status=installation.status)
    try:
        Transaction(install_store.install_ops(installation), recorded.ops).commit()
    except TransactionConflict as conflict:
        if conflict.failed("guard"):
            raise Conflict(f"The integration {name!r} is already installed on this organization") from None
        raise NotFound(NO_INTEGRATION) from None
    recorded.queue()
    return installation


def find(name: str, installation_id: str) -> tuple[Integration, Installation]:
    integration = load(name)
    installation = (install_store.get_installation(name, installation_id) if plausible(installation_id)
                    else None)
    if installation is None:
        raise NotFound(NO_INSTALLATION)
    return integration, installation


def managing(caller: Caller, name: str, installation_id: str,
             action: str) -> tuple[Integration, Installation]:
    """The installation, for an admin of its organization (404 for non-members, 403 for other members)."""
    integration, installation = find(name, installation_id)
    try:
        access = org_access(installation.org_id, caller)
    except NotFound:
        raise NotFound(NO_INSTALLATION) from None
    access.require("admin", action)
    return integration, installation


def reading(caller: Caller, name: str, installation_id: str) -> tuple[Integration, Installation]:
    """The installation, for admins of its organization or of the integration's owner, and for its own
    tokens (other members of those organizations: 403 naming the role; anyone else: 404)."""
    integration, installation = find(name, installation_id)
    grant = caller.installation
    if grant is not None:
        if (grant.integration, grant.installation_id) == (name, installation_id):
            return integration, installation
        raise NotFound(NO_INSTALLATION)
    # Another member of either organization is told the role it lacks, as everywhere in an organization
    # (docs/permissions.md); the installation does not exist for anyone outside both.
    refusal: Forbidden | None = None
    for org_id in dict.fromkeys((installation.org_id, integration.owner_id)):
        try:
            access = org_access(org_id, caller)
        except NotFound:
            continue
        except Forbidden as sso_required:
            refusal = sso_required
            continue
        if access.is_admin:
            return integration, installation
        refusal = Forbidden("You need the admin role in the installation's organization (or the "
                            "integration's) to read the installation")
    if refusal is not None:
        raise refusal
    raise NotFound(NO_INSTALLATION)


def get_installation(caller: Caller, name: str, installation_id: str) -> Installation:
    return reading(caller, name, installation_id)[1]


def update_installation(caller: Caller, name: str, installation_id: str,
                        body: UpdateInstallation) -> Installation:
    integration, installation = managing(caller, name, installation_id, "configure integrations")
    seen = installation.updated_at
    previous = {"status": installation.status, "configuration": dict(installation.configuration)}
    if body.configuration is not None:
        schema = account_schema(integration)
        installation.configuration = with_defaults(schema, body.configuration)
        installation.status = status_for(schema, installation.configuration, "configuration")
    if body.externalIds is not None:
        installation.external_ids = list(dict.fromkeys(body.externalIds))
    if body.space_selection is not None:
        installation.space_selection = body.space_selection
    if body.site_selection is not None:
        installation.site_selection = body.site_selection
    installation.updated_at = clock.now_iso()
    # The event queue, which only changes reach: a cold-start cost of the listings (bench/README.md).
    from bindery.domain.integrations import events
    recorded = events.event(name, installation.id, installation.org_id, "installation_setup",
                            status=installation.status, previous=previous)
    try:
        Transaction(install_store.update_installation_op(installation, seen), recorded.ops).commit()
    except TransactionConflict:
        raise Conflict("The installation changed while this request ran; send it again") from None
    recorded.queue()
    return installation


def uninstall(caller: Caller, name: str, installation_id: str) -> None:
    """The installation and its space and site installations; nothing (204) when it is missing."""
    if integration_store.get_integration(name) is None or not plausible(installation_id):
        return
    installation = install_store.get_installation(name, installation_id)
    if installation is None:
        return
    managing(caller, name, installation_id, "uninstall integrations")
    # The event queue, which only changes reach: a cold-start cost of the listings (bench/README.md).
    from bindery.domain.integrations import events
    recorded = events.event(name, installation.id, installation.org_id, "installation_deleted",
                            previous={"configuration": installation.configuration})
    try:
        Transaction(install_store.uninstall_ops(installation), recorded.ops).commit()
    except TransactionConflict:
        return  # uninstalled by another request meanwhile
    recorded.queue()
    # Nothing reaches these once the installation is gone; a failure here leaves only unreachable items.
    install_store.delete_keys(install_store.installation_content_keys(name, installation_id))


def list_installations(caller: Caller, name: str, external_id: str | None, *, limit: int,
                       page: str | None) -> Listing[Installation]:
    integration = load(name)
    owner_admin(caller, integration, "list its installations")
    scope = f"integration-installations:{name}:{external_id or ''}"
    start = open_page(scope, page)
    found = install_store.installations_page(name, external_id, limit, start.start)
    count = start.count if start.count is not None else install_store.installations_count(name, external_id)
    items = [Installation.from_item(item) for item in found.items]
    return Listing(items, next_page(scope, found.last_key, count), count)


def org_installations(access: OrgAccess, caller: Caller, search: str | None, *, limit: int,
                      page: str | None) -> Listing[InstalledIntegration]:
    """ORG/installations: the organization's installations with their integrations, by name (admins)."""
    access.require("admin", "list the organization's installations")
    org_id = access.org.id
    scope = f"org-installations:{org_id}:{search or ''}"
    start = open_page(scope, page)
    found = install_store.org_installations_page(org_id, limit, start.start)
    installations = [Installation.from_item(item) for item in found.items]
    integrations = integration_store.get_integrations([i.integration for i in installations])
    items: list[InstalledIntegration] = []
    for installation in installations:
        integration = integrations.get(installation.integration)
        if integration is None:
            continue
        if search and search.lower() not in f"{integration.name} {integration.title}".lower():
            continue
        shown = readable_or_owned(caller, integration, access)
        if shown is not None:
            items.append(InstalledIntegration(shown, installation))
    count = start.count if start.count is not None else _count(org_id, search)
    return Listing(items, next_page(scope, found.last_key, count), count)


def _count(org_id: str, search: str | None) -> int:
    if not search:
        return install_store.org_installations_count(org_id)
    total, start = 0, None
    while True:
        page = install_store.org_installations_page(org_id, 1000, start)
        names = [item["integration"] for item in page.items]
        found = integration_store.get_integrations(names)
        total += sum(1 for n in names if n in found
                     and search.lower() in f"{found[n].name} {found[n].title}".lower())
        if not page.last_key:
            return total
        start = page.last_key


def readable_or_owned(caller: Caller, integration: Integration, access: OrgAccess) -> IntegrationView | None:
    """An installed integration as its installer sees it (None: made private by another owner since)."""
    if integration.owner_id == access.org.id:
        return view(integration, access.org, access.member)
    try:
        return readable(caller, integration)
    except NotFound:
        return None
