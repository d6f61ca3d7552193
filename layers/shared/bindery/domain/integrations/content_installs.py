"""Installing an organization's installation on its spaces and sites (`kind` "space" or "site"), and
the listings of those setups (docs/integrations.md).

The organization's admins install, configure and uninstall; the space or site must be the
installation's organization's (404 otherwise), and the integration's `target` must allow the kind
(`all`, or the kind itself; 400 naming the field otherwise). The configuration is checked against
`configurations.space` / `.site` as an installation's against `.account`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import member_roles, space_access
from bindery.domain.access.organization import require_org_role
from bindery.domain.integrations.configuration import status_for, with_defaults
from bindery.domain.integrations.installations import managing, reading
from bindery.domain.integrations.records import IntegrationView, load, owner_admin, readable_views
from bindery.platform import clock
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import plausible
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.store import Transaction, TransactionConflict
from bindery.store import integration_installations as install_store
from bindery.store import integrations as integration_store
from bindery.store import sites as site_store
from bindery.store import spaces as space_store
from bindery.store.integration_installations import ContentInstallation
from bindery.store.integrations import Integration
from bindery.store.orgs import Organization, get_org
from bindery.store.sites import Site
from bindery.store.spaces import Space

if TYPE_CHECKING:
    from bindery.domain.integrations.events import Recorded
    from bindery.requests.integrations import UpdateContentInstallation

FIELD = {"space": "space", "site": "siteId"}
MISSING = {"space": "No matching space", "site": "No matching site"}


@dataclass(frozen=True)
class ContentInstallationView:
    """A space or site installation; with `extended`, the space (and the caller's role on it) or the site
    (and its organization)."""

    setup: ContentInstallation
    space: Space | None = None
    space_role: str | None = None
    site: Site | None = None
    org: Organization | None = None


def _content_org(kind: str, content_id: str) -> str | None:
    """The organization of a live space or site (None: there is none)."""
    if not plausible(content_id):
        return None
    if kind == "space":
        space = space_store.get_space(content_id)
        return space.org_id if space is not None and space.deleted_at is None else None
    site = site_store.get_site(content_id)
    return site.org_id if site is not None else None


def _schema(integration: Integration, kind: str) -> dict[str, object] | None:
    schema: dict[str, object] | None = (integration.configurations or {}).get(kind)
    return schema


def install_on(caller: Caller, name: str, installation_id: str, kind: str, content_id: str,
               *, extended: bool) -> ContentInstallationView:
    integration, installation = managing(caller, name, installation_id, f"install integrations on {kind}s")
    if integration.target not in ("all", kind):
        raise BadRequest(f"{FIELD[kind]}: the integration installs on {integration.target}s, not {kind}s")
    if _content_org(kind, content_id) != installation.org_id:
        raise NotFound(MISSING[kind])
    now = clock.now_iso()
    schema = _schema(integration, kind)
    configuration = with_defaults(schema, {})
    setup = ContentInstallation(kind=kind, integration=name, installation_id=installation.id,
                                content_id=content_id, org_id=installation.org_id,
                                status=status_for(schema, configuration, "configuration"), created_at=now,
                                updated_at=now, configuration=configuration)
    recorded = _event(setup, "setup", status=setup.status)
    try:
        Transaction(install_store.install_content_ops(setup), recorded.ops).commit()
    except TransactionConflict as conflict:
        if conflict.failed("content"):
            raise Conflict(f"The integration is already installed on this {kind}") from None
        raise NotFound("No matching installation") from None
    recorded.queue()
    return _views(caller, [setup], extended=extended)[0]


def _event(setup: ContentInstallation, what: str, **fields: object) -> Recorded:
    """`space_installation_setup`, `site_installation_deleted`…, naming the space or site."""
    named: dict[str, object] = {f"{setup.kind}Id": setup.content_id, **fields}
    # The event queue, which only changes reach: a cold-start cost of the listings (bench/README.md).
    from bindery.domain.integrations import events
    return events.event(setup.integration, setup.installation_id, setup.org_id,
                        f"{setup.kind}_installation_{what}", fields=named)


def _setup(name: str, installation_id: str, kind: str, content_id: str) -> ContentInstallation:
    setup = (install_store.get_content_installation(kind, name, installation_id, content_id)
             if plausible(content_id) else None)
    if setup is None:
        raise NotFound(f"No matching {kind} installation")
    return setup


def get_on(caller: Caller, name: str, installation_id: str, kind: str, content_id: str,
           *, extended: bool) -> ContentInstallationView:
    reading(caller, name, installation_id)
    return _views(caller, [_setup(name, installation_id, kind, content_id)], extended=extended)[0]


def update_on(caller: Caller, name: str, installation_id: str, kind: str, content_id: str, *,
              body: UpdateContentInstallation, extended: bool) -> ContentInstallationView:
    integration, _ = managing(caller, name, installation_id, f"configure integrations on {kind}s")
    setup = _setup(name, installation_id, kind, content_id)
    seen = setup.updated_at
    previous = {"status": setup.status, "configuration": dict(setup.configuration)}
    if body.configuration is not None:
        schema = _schema(integration, kind)
        setup.configuration = with_defaults(schema, body.configuration)
        setup.status = status_for(schema, setup.configuration, "configuration")
    if body.externalIds is not None:
        setup.external_ids = list(dict.fromkeys(body.externalIds))
    setup.updated_at = clock.now_iso()
    recorded = _event(setup, "setup", status=setup.status, previous=previous)
    try:
        Transaction(install_store.update_content_op(setup, seen), recorded.ops).commit()
    except TransactionConflict:
        raise Conflict(f"The {kind} installation changed while this request ran; send it again") from None
    recorded.queue()
    return _views(caller, [setup], extended=extended)[0]


def uninstall_from(caller: Caller, name: str, installation_id: str, kind: str, content_id: str) -> None:
    """Nothing (204) when the integration, installation or setup is missing."""
    if integration_store.get_integration(name) is None or not plausible(installation_id):
        return
    if install_store.get_installation(name, installation_id) is None or not plausible(content_id):
        return
    managing(caller, name, installation_id, f"uninstall integrations from {kind}s")
    setup = install_store.get_content_installation(kind, name, installation_id, content_id)
    if setup is None:
        return
    _uninstall(setup)


def _uninstall(setup: ContentInstallation) -> None:
    """The setup removed with its `…_installation_deleted` event, its installation's counter moved; nothing
    if another request removed it meanwhile."""
    recorded = _event(setup, "deleted", previous={"configuration": setup.configuration})
    try:
        Transaction(install_store.uninstall_content_ops(setup), recorded.ops).commit()
    except TransactionConflict:
        return
    recorded.queue()


def list_setups(caller: Caller, name: str, installation_id: str | None, kind: str, external_id: str | None,
                *, extended: bool, limit: int, page: str | None) -> Listing[ContentInstallationView]:
    """One installation's setups (its organization's admins, the owner's), or every one of the
    integration's (the owner's admins: the integration's own view)."""
    if installation_id is None:
        owner_admin(caller, load(name), f"list its {kind} installations")
    else:
        reading(caller, name, installation_id)
    scope = f"integration-{kind}s:{name}:{installation_id or ''}:{external_id or ''}"
    start = open_page(scope, page)
    found = install_store.content_installations_page(kind, name, installation_id, external_id=external_id,
                                                     limit=limit, start_key=start.start)
    count = (start.count if start.count is not None
             else install_store.content_installations_count(kind, name, installation_id, external_id))
    setups = [ContentInstallation.from_item(item) for item in found.items]
    return Listing(_views(caller, setups, extended=extended), next_page(scope, found.last_key, count), count)


def _views(caller: Caller, setups: list[ContentInstallation], *,
           extended: bool) -> list[ContentInstallationView]:
    if not extended or not setups:
        return [ContentInstallationView(setup) for setup in setups]
    if setups[0].kind == "space":
        spaces = space_store.get_spaces([s.content_id for s in setups])
        org_id = setups[0].org_id
        try:
            _, roles = member_roles(org_id, caller, list(spaces.values()))
        except NotFound:
            roles = {}  # the integration's developer, outside the organization: no role of their own
        return [ContentInstallationView(s, space=spaces.get(s.content_id), space_role=roles.get(s.content_id))
                for s in setups]
    sites = site_store.get_sites([s.content_id for s in setups])
    org = get_org(setups[0].org_id)
    return [ContentInstallationView(s, site=sites.get(s.content_id), org=org) for s in setups]


def integrations_on(caller: Caller, kind: str, content_id: str, org_id: str | None,
                    search: str | None) -> Listing[IntegrationView]:
    """The integrations installed on a space (readers of the space) or a site (whoever may read the site:
    members with a role, docs/sites.md), every one in one answer: a space or site has few."""
    if kind == "space":
        space_access(caller, content_id)
    else:
        require_org_role(caller, org_id or "", "read", "read the organization's sites")
        if _content_org(kind, content_id) != org_id:
            raise NotFound(MISSING[kind])
    setups = install_store.installed_on(kind, content_id)
    integrations = integration_store.get_integrations([s.integration for s in setups])
    matching = [integrations[name] for name in sorted(integrations)
                if not search or search.lower() in f"{name} {integrations[name].title}".lower()]
    shown = readable_views(caller, matching)  # one BatchGetItem for every owner, not one per integration
    return Listing(shown, None, len(shown))


def content_gone(kind: str, content_ids: list[str]) -> None:
    """Spaces purged or transferred to another organization, a site deleted: their setups go too, each
    with its `…_installation_deleted` event and its installation's counter moved, so `spaces` stays
    exact and no integration hears of content its organization no longer has. One Query per space or
    site (usually empty), one transaction per setup."""
    for content_id in content_ids:
        for setup in install_store.installed_on(kind, content_id):
            _uninstall(setup)
