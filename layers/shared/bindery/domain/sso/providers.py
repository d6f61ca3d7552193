"""An organization's SAML providers: create, list, read, update, delete (organization admins), and the
public list of the active ones a login page shows (`ORG/sso`).

A provider is `pending` until it has everything a login needs (the IdP's entityID, its SSO URL and its
signing certificate) and `active` from then on. What is checked before anything is written: the
certificate is PEM X.509 and valid now, the SSO URL is https, the default team is one of the
organization's.
"""

from __future__ import annotations

from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import NO_ORG, org_access
from bindery.engines.saml.certificates import CertificateError, load_certificate, normalized_pem
from bindery.platform import clock
from bindery.platform.errors import BadRequest, Conflict, NotFound, TransactionConflict
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.requests.saml import CreateSAMLProvider, UpdateSAMLProvider
from bindery.store import orgs as org_store
from bindery.store import saml as saml_store
from bindery.store import teams as team_store
from bindery.store.saml import Provider
from bindery.store.teams import Team

NO_PROVIDER = "No matching SAML provider"
DEFAULT_ROLE = "read"  # what someone an IdP vouches for may do when the admin said nothing else


@dataclass(frozen=True)
class ProviderResult:
    provider: Provider
    team: Team | None  # the default team, when it still exists


def _result(provider: Provider) -> ProviderResult:
    team = team_store.get_team(provider.org_id, provider.default_team) if provider.default_team else None
    return ProviderResult(provider, team)


def _admin(caller: Caller, org_id: str, action: str) -> None:
    org_access(org_id, caller).require("admin", action)


def _open(caller: Caller, org_id: str, provider_id: str, action: str) -> Provider:
    _admin(caller, org_id, action)
    provider = saml_store.get_provider(provider_id)
    if provider is None or provider.org_id != org_id:
        raise NotFound(NO_PROVIDER)
    return provider


def _apply(provider: Provider, body: UpdateSAMLProvider) -> None:
    """Checks and applies the fields the body sent."""
    sent = body.model_fields_set
    if "label" in sent:
        if body.label is None:
            raise BadRequest("label: must be a string of 1 to 30 characters")
        provider.label = body.label
    if "entityID" in sent:
        provider.entity_id = body.entityID
    if "ssoURL" in sent:
        if body.ssoURL is not None and not body.ssoURL.startswith("https://"):
            raise BadRequest("ssoURL: the identity provider's SSO URL must be https")
        provider.sso_url = body.ssoURL
    if "certificate" in sent:
        provider.certificate = _certificate(body.certificate)
    if "defaultTeam" in sent:
        if body.defaultTeam is not None and team_store.get_team(provider.org_id, body.defaultTeam) is None:
            raise BadRequest("defaultTeam: no team of the organization has this id")
        provider.default_team = body.defaultTeam
    if "defaultRole" in sent:
        provider.default_role = body.defaultRole


def _certificate(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        load_certificate(text, clock.now())
    except CertificateError as error:
        raise BadRequest(f"certificate: {error}") from None
    return normalized_pem(text)


def create_provider(caller: Caller, org_id: str, body: CreateSAMLProvider) -> ProviderResult:
    _admin(caller, org_id, "configure SAML providers")
    at = clock.now_iso()
    provider = Provider(id=new_id(), org_id=org_id, label=body.label, created_at=at, updated_at=at,
                        default_role=DEFAULT_ROLE)
    _apply(provider, body)
    saml_store.create_provider(provider)
    return _result(provider)


def get_provider(caller: Caller, org_id: str, provider_id: str) -> ProviderResult:
    return _result(_open(caller, org_id, provider_id, "read SAML providers"))


def update_provider(caller: Caller, org_id: str, provider_id: str,
                    body: UpdateSAMLProvider) -> ProviderResult:
    provider = _open(caller, org_id, provider_id, "configure SAML providers")
    seen = provider.updated_at
    _apply(provider, body)
    provider.updated_at = clock.now_iso()
    try:
        saml_store.replace_provider(provider, seen)
    except TransactionConflict:
        raise Conflict("The SAML provider changed meanwhile: read it again and retry") from None
    return _result(provider)


def delete_provider(caller: Caller, org_id: str, provider_id: str) -> bool:
    """Whether there was a provider to delete (the spec answers 205 then, 204 otherwise)."""
    _admin(caller, org_id, "configure SAML providers")
    provider = saml_store.get_provider(provider_id)
    if provider is None or provider.org_id != org_id:
        return False
    saml_store.delete_provider(provider_id)
    return True


@dataclass(frozen=True)
class ProvidersFound:
    listing: Listing[ProviderResult]


def list_providers(caller: Caller, org_id: str, limit: int, page: str | None) -> ProvidersFound:
    _admin(caller, org_id, "read SAML providers")
    scope = f"saml:{org_id}"
    start = open_page(scope, page)
    found = saml_store.org_providers_page(org_id, limit, start.start)
    providers = [Provider.from_item(item) for item in found.items]
    team_ids = sorted({p.default_team for p in providers if p.default_team})
    teams = {team_id: team_store.get_team(org_id, team_id) for team_id in team_ids}
    count = start.count if start.count is not None else saml_store.org_providers_count(org_id)
    results = [ProviderResult(p, teams.get(p.default_team) if p.default_team else None) for p in providers]
    return ProvidersFound(Listing(results, next_page(scope, found.last_key, count), count))


def login_providers(org_id: str) -> list[Provider]:
    """The organization's active providers, for its login page: anyone may ask (no caller)."""
    if org_store.get_org(org_id) is None:
        raise NotFound(NO_ORG)
    found: list[Provider] = []
    start = None
    while True:
        page = saml_store.org_providers_page(org_id, 100, start, active_only=True)
        found += [Provider.from_item(item) for item in page.items]
        if not page.last_key:
            return found
        start = page.last_key
