"""A login through a SAML provider (docs/sso.md): the start (SP-initiated: an AuthnRequest sent to the
IdP by redirect) and the ACS (a signed response posted back, SP- or IdP-initiated).

The ACS trusts nothing but what the provider's certificate verifies (bindery.engines.saml.responses). A
response that answers a request must answer one Bindery sent through this provider and has not seen
answered; each assertion logs in once. The account it signs in is the one the organization's identity is
bound to, the signed-in user who started the login to link it, or a new one
(bindery.domain.sso.account_binding); they join the organization with the provider's default role and
team, are marked `sso`, and get an API token that reaches only that organization (and their own
profile), even when it enforces SSO (bindery.domain.access.organization).
"""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlencode

from bindery.domain.access.auth import Caller, hash_token
from bindery.domain.access.organization import NO_ORG, require_token_org
from bindery.domain.sso import account_binding
from bindery.engines.saml.authn_requests import authn_request_xml, redirect_url
from bindery.engines.saml.certificates import CertificateError, load_certificate
from bindery.engines.saml.endpoints import ServiceEndpoints, service_endpoints
from bindery.engines.saml.responses import (
    Expected,
    MalformedResponse,
    ResponseRefused,
    VerifiedAssertion,
    parse_response,
    verify_response,
)
from bindery.platform import clock, stack_urls
from bindery.platform.config import settings
from bindery.platform.errors import BadRequest, Conflict, Forbidden, NotFound, TransactionConflict
from bindery.platform.ids import new_id, new_token
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import saml as saml_store
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.members import Member
from bindery.store.saml import AuthnRequest, Login, Provider
from bindery.store.teams import TeamLink
from bindery.store.users import User

REQUEST_LIFETIME = timedelta(minutes=10)  # how long someone may take at the IdP's login page
NO_PROVIDER = "No matching SAML provider"
MAX_EMAIL = 254  # RFC 5321's longest address; the email is part of keys (DynamoDB caps them)


def _active(provider_id: str) -> Provider:
    provider = saml_store.get_provider(provider_id)
    if provider is None:
        raise NotFound(NO_PROVIDER)
    if not provider.active:
        raise BadRequest("The SAML provider is not fully configured: it needs entityID, ssoURL and "
                         "certificate before anyone can log in with it")
    return provider


def service(api_base: str, provider_id: str) -> ServiceEndpoints:
    """The provider's SP endpoints (its metadata), for anyone: an IdP's admin imports them."""
    if saml_store.get_provider(provider_id) is None:
        raise NotFound(NO_PROVIDER)
    return service_endpoints(api_base, provider_id)


def start(api_base: str, provider_id: str) -> str:
    """Where to send the browser: the IdP's SSO URL with a new AuthnRequest, remembered for the ACS."""
    return _redirect(api_base, _active(provider_id), None)


def start_link(api_base: str, caller: Caller, org_id: str, provider_id: str) -> str:
    """A login that links the IdP's identity to the signed-in caller's account (docs/sso.md, "Accounts"):
    the AuthnRequest names the caller, and the ACS answering it binds the identity to them. For an active
    member of the provider's organization; its SSO enforcement does not apply, since linking is how a
    member gets to use SSO at all."""
    if caller.installation is not None:
        raise Forbidden("Only a person signed in with their own API token can link their account")
    require_token_org(caller, org_id)
    org, member = org_store.get_org_and_member(org_id, caller.user_id)
    if org is None or member is None or member.disabled:
        raise NotFound(NO_ORG)
    provider = _active(provider_id)
    if provider.org_id != org_id:
        raise NotFound(NO_PROVIDER)
    return _redirect(api_base, provider, caller.user_id)


def _redirect(api_base: str, provider: Provider, link_user_id: str | None) -> str:
    issued = clock.now()
    request = AuthnRequest(id=f"_{new_id()}", provider_id=provider.id, created_at=clock.iso(issued),
                           expires_at=int((issued + REQUEST_LIFETIME).timestamp()), link_user_id=link_user_id)
    saml_store.put_authn_request(request)
    endpoints = service_endpoints(api_base, provider.id)
    xml = authn_request_xml(request.id, issued, endpoints, str(provider.sso_url))
    return redirect_url(str(provider.sso_url), xml, relay_state=request.id)


def _form_field(form: str, name: str) -> str:
    values = parse_qs(form, keep_blank_values=True).get(name)
    if not values or not values[0]:
        raise BadRequest(f"{name}: required (the IdP posts it as a form field)")
    return values[0]


def _verified(provider: Provider, endpoints: ServiceEndpoints, posted: str) -> VerifiedAssertion:
    now = clock.now()
    try:
        certificate = load_certificate(str(provider.certificate), now)
        root = parse_response(posted)
        return verify_response(root, Expected(certificate=certificate, idp_entity_id=str(provider.entity_id),
                                              sp_entity_id=endpoints.entity_id, acs_url=endpoints.acs_url,
                                              now=now))
    except CertificateError as error:
        raise Forbidden(f"SAML login refused: the provider's certificate is {error}") from None
    except MalformedResponse as error:
        raise BadRequest(str(error)) from None
    except ResponseRefused as error:
        raise Forbidden(f"SAML login refused: {error}") from None


def _answered(provider: Provider, assertion: VerifiedAssertion) -> AuthnRequest | None:
    """The AuthnRequest the assertion answers (None: IdP-initiated), which must be one of ours."""
    if assertion.in_response_to is None:
        return None
    # Our request ids are short: a longer one is not ours (and must not reach a key).
    ours = len(assertion.in_response_to) <= 64
    request = saml_store.get_authn_request(assertion.in_response_to) if ours else None
    if request is None or request.provider_id != provider.id:
        raise Forbidden("SAML login refused: InResponseTo names no request this provider sent (unknown, "
                        "expired or already answered)")
    return request


def consume(api_base: str, provider_id: str, form: str) -> str:
    """The ACS: verifies the posted response, logs the user in; where to send the browser (with the token)."""
    provider = _active(provider_id)
    endpoints = service_endpoints(api_base, provider.id)
    assertion = _verified(provider, endpoints, _form_field(form, "SAMLResponse"))
    login = _login(provider, assertion, _answered(provider, assertion))
    token = new_token()
    login.token_hash = hash_token(token)
    try:
        saml_store.commit_login(login)
    except TransactionConflict as error:
        if error.failed("assertion"):
            raise Forbidden("SAML login refused: this assertion was already used (replay)") from None
        if error.failed("authn-request"):
            raise Forbidden("SAML login refused: the request it answers was already answered") from None
        if error.failed("sso-identity"):
            raise Forbidden(account_binding.TAKEN) from None
        raise Conflict("The login conflicted with a change to the account: log in again") from None
    target = return_url()
    # In the fragment: browsers do not send it to the return URL's server, nor keep it in Referer.
    return f"{target}#" + urlencode({"token": token, "organization": provider.org_id, "user": login.user.id})


def return_url() -> str:
    """Where a login sends the browser: BINDERY_SSO_RETURN_URL, else the app's `/auth/saml` page (on a
    deployed stack without an app URL, under the API's own: bindery.platform.stack_urls)."""
    return settings().sso_return_url or stack_urls.app_base() + "/auth/saml"


def _account(provider: Provider, email: str,
             request: AuthnRequest | None) -> tuple[User | None, str | None, bool]:
    """The existing account the login signs in (None: a new one), the binding it replaces (one that names
    a deleted account), and whether it binds the identity now."""
    bound_id = saml_store.bound_user_id(provider.org_id, email)
    # A binding whose account was since deleted binds nothing: the identity is free again.
    bound = user_store.get_user(bound_id) if bound_id else None
    linking = request.link_user_id if request is not None else None
    owner = user_store.user_id_for_email(email) if bound is None or linking is not None else None
    decision = account_binding.decide(account_binding.Facts(
        bound_user=bound.id if bound else None, email_owner=owner, linking_user=linking))
    if decision.user_id is None or (bound is not None and decision.user_id == bound.id):
        user = bound
    else:
        user = user_store.get_user(decision.user_id)
        if user is None:
            raise Forbidden("SAML login refused: the account that started this link no longer exists")
    return user, bound_id if decision.bind else None, decision.bind


def _login(provider: Provider, assertion: VerifiedAssertion, request: AuthnRequest | None) -> Login:
    now = clock.now_iso()
    if len(assertion.email) > MAX_EMAIL:
        raise Forbidden(f"SAML login refused: the asserted email is longer than {MAX_EMAIL} characters")
    user, replaces, bind = _account(provider, assertion.email, request)
    new_user = user is None
    if user is None:
        # The IdP vouches for the address it asserts, which no account holds: the account is its own.
        user = User(id=new_id(), display_name=assertion.display_name[:128], email=assertion.email,
                    email_verified=True, created_at=now)
    member = None if new_user else member_store.get_member(provider.org_id, user.id)
    if member is not None and member.disabled:
        raise Forbidden("SAML login refused: your membership of this organization is disabled")
    new_member = member is None
    if member is None:
        member = Member.joining(provider.org_id, user, provider.default_role, now, sso=True)
    link = None
    team_id = provider.default_team
    if team_id and team_store.get_team(provider.org_id, team_id) is not None and (
            new_member or not saml_store.in_team(provider.org_id, team_id, user.id)):
        link = TeamLink(org_id=provider.org_id, team_id=team_id, user_id=user.id, role="member", added_at=now)
    return Login(provider=provider, assertion_id=assertion.id,
                 assertion_expires_at=int(assertion.expires_at.timestamp()),
                 request_id=request.id if request is not None else None, user=user, new_user=new_user,
                 member=member, new_member=new_member, team_link=link, token_hash="",
                 identity_email=assertion.email, bind=bind, replaces_binding=replaces)
