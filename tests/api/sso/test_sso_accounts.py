"""Which account an organization's SAML login signs in, and where its token reaches (docs/sso.md,
"Accounts" and "Tokens"). Issue 39 F1: anyone can create an organization and register a provider with
their own key, so an assertion never signs in an existing account of another organization by email."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bindery.store import members as member_store
from bindery.store import saml as saml_store
from tests.api.members.test_members import error, join
from tests.api.saml_idp import IdP, authn_request, certificate_pair
from tests.api.sso.test_sso_login import answer, linked, logged_in, post_acs, sp_initiated, start
from tests.api.sso.test_sso_providers import complete, new_provider

pytestmark = pytest.mark.repository


@pytest.fixture
def acme(api):
    """Organization A: its admin, a reader, and A's own provider."""
    ada = api.org_admin("Ada", "Acme")
    reader = join(api, ada.org_id, "Rita", "read", email="rita@acme.example")
    idp = IdP()
    provider = new_provider(api, ada, **complete(idp))
    return ada, reader, idp, provider


@pytest.fixture
def attacker(api):
    """Organization B, created by anyone, with a provider whose key B holds."""
    mallory = api.org_admin("Mallory", "Evil")
    idp = IdP(entity_id="https://idp-b.example", sso_url="https://idp-b.example/sso")
    provider = new_provider(api, mallory, **complete(idp))
    return mallory, idp, provider


def _email(api, who):
    return api.get("/user", token=who.token).json()["email"]


def _refused_without_token(reply):
    message = error(reply, 403)
    assert "not linked" in message, message
    assert "/link" in message, message
    assert "Location" not in reply.headers


@pytest.mark.parametrize("victim", ["admin", "reader"])
def test_another_organizations_provider_cannot_sign_in_an_existing_account_by_email(api, acme, attacker,
                                                                                     victim):
    ada, reader, _, _ = acme
    mallory, evil_idp, evil = attacker
    target = ada if victim == "admin" else reader
    email = _email(api, target)
    _refused_without_token(post_acs(api, evil, answer(evil_idp, evil, email=email)))  # IdP-initiated
    _refused_without_token(sp_initiated(api, evil_idp, evil, email=email.upper()))
    # The victim did not join B, and A's data is still A's alone.
    assert member_store.get_member(mallory.org_id, target.user_id) is None
    assert api.get(f"/orgs/{mallory.org_id}/members/{target.user_id}", token=mallory.token).status == 404
    assert saml_store.bound_user_id(mallory.org_id, email) is None
    assert api.get(f"/orgs/{ada.org_id}", token=target.token).status == 200


def test_a_member_of_the_providers_own_organization_is_not_signed_in_by_email_either(api, acme):
    """Created before SSO (e.g. invited): the IdP asserting their email is no proof they hold the account;
    the admin's sso flag is none either. They link while signed in."""
    ada, reader, idp, provider = acme
    api.post(f"/orgs/{ada.org_id}/members/{reader.user_id}/sso", token=ada.token)
    _refused_without_token(sp_initiated(api, idp, provider, email="rita@acme.example"))


def test_a_member_who_links_while_signed_in_then_logs_in_with_sso(api, acme):
    ada, reader, idp, provider = acme
    fragment = logged_in(linked(api, idp, provider, reader, "rita@acme.example"))
    assert fragment["user"] == reader.user_id
    assert api.get(f"/orgs/{ada.org_id}", token=fragment["token"]).status == 200
    assert member_store.get_member(ada.org_id, reader.user_id).sso is True
    # From now on A's IdP signs that account in, SP- or IdP-initiated.
    assert logged_in(sp_initiated(api, idp, provider, email="rita@acme.example"))["user"] == reader.user_id
    assert logged_in(post_acs(api, provider, answer(idp, provider, email="rita@acme.example")))["user"] == \
        reader.user_id


def test_a_link_needs_a_signed_in_member_and_an_identity_no_other_account_holds(api, acme, attacker):
    ada, reader, idp, provider = acme
    mallory, _, evil = attacker
    link = f"/orgs/{ada.org_id}/saml/{provider['id']}/link"
    assert api.post(link).status == 401
    error(api.post(link, token=mallory.token), 404)  # not a member of A
    error(api.post(f"/orgs/{mallory.org_id}/saml/{provider['id']}/link", token=mallory.token), 404)
    error(api.post(f"/orgs/{ada.org_id}/saml/{evil['id']}/link", token=ada.token), 404)
    # A link binds only the identity with the signed-in account's email: one that someone else finishes at
    # the IdP (a bound identity, or one nobody holds yet) binds nothing.
    created = logged_in(sp_initiated(api, idp, provider, email="sam@corp.example"))["user"]
    for email in ("sam@corp.example", "nobody-yet@corp.example"):
        assert "not your account's" in error(linked(api, idp, provider, reader, email), 403)
    assert logged_in(sp_initiated(api, idp, provider, email="sam@corp.example"))["user"] == created
    assert saml_store.bound_user_id(ada.org_id, "nobody-yet@corp.example") is None
    # A plain login's request binds nobody, whoever started it.
    request, relay = authn_request(start(api, provider))
    assert logged_in(post_acs(api, provider, answer(idp, provider, request.get("ID"),
                                                    email="new@corp.example"), relay))["user"] not in (
        reader.user_id, ada.user_id)


def test_the_first_login_creates_an_account_of_the_organization_and_binds_it(api, acme, attacker):
    ada, _, idp, provider = acme
    mallory, evil_idp, evil = attacker
    user = logged_in(sp_initiated(api, idp, provider, email="new@corp.example"))["user"]
    assert member_store.get_member(ada.org_id, user) is not None
    assert saml_store.bound_user_id(ada.org_id, "new@corp.example") == user
    # B's provider asserting the same email is an existing account not bound to B: refused.
    _refused_without_token(post_acs(api, evil, answer(evil_idp, evil, email="new@corp.example")))
    assert member_store.get_member(mallory.org_id, user) is None


def test_an_sso_token_reaches_its_organization_and_the_users_profile_only(api, acme):
    ada, reader, idp, provider = acme
    # Rita also runs an organization of her own, with a space in it.
    other = api.post("/orgs", token=reader.token, body={"title": "Rita's"}).json()["id"]
    space = api.post(f"/orgs/{other}/spaces", token=reader.token, body={"title": "Notes"}).json()["id"]
    handbook = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"title": "Handbook"})
    acme_space = handbook.json()["id"]
    token = logged_in(linked(api, idp, provider, reader, "rita@acme.example"))["token"]
    assert api.get("/user", token=token).json()["id"] == reader.user_id
    assert api.get(f"/users/{reader.user_id}", token=token).status == 200
    assert api.get(f"/orgs/{ada.org_id}", token=token).status == 200
    assert api.get(f"/spaces/{acme_space}", token=token).status == 200
    for path in (f"/orgs/{other}", f"/orgs/{other}/members", f"/orgs/{other}/spaces", f"/spaces/{space}",
                 f"/spaces/{space}/content"):
        error(api.get(path, token=token), 404)
        assert api.get(path, token=reader.token).status == 200, path
    error(api.patch(f"/orgs/{other}", token=token, body={"title": "Taken"}), 404)
    listed = api.get("/orgs", token=token).json()
    assert ([org["id"] for org in listed["items"]], listed["count"]) == ([ada.org_id], 1)
    assert "single sign-on" in error(api.post("/orgs", token=token, body={"title": "More"}), 403)


def test_removing_or_unconfiguring_the_provider_ends_its_tokens(api, acme, request_counter):
    ada, _, idp, provider = acme
    token = logged_in(sp_initiated(api, idp, provider, email="sam@corp.example"))["token"]
    request_counter.clear()
    assert api.get("/user", token=token).status == 200
    # The authorizer: the token, then its provider (SSO tokens only); the route: the user.
    assert request_counter == {"GetItem": 3}
    path = f"/orgs/{ada.org_id}/saml/{provider['id']}"
    assert api.patch(path, token=ada.token, body={"certificate": None}).status == 200
    assert api.get("/user", token=token).status == 401
    second = new_provider(api, ada, **complete(idp, label="Second"))
    token = logged_in(sp_initiated(api, idp, second, email="sam@corp.example"))["token"]
    assert api.get("/user", token=token).status == 200
    assert api.delete(f"/orgs/{ada.org_id}/saml/{second['id']}", token=ada.token).status == 205
    assert api.get("/user", token=token).status == 401
    assert api.get(f"/orgs/{ada.org_id}", token=token).status == 401


def test_a_provider_whose_certificate_expired_ends_its_tokens(api, acme):
    _, _, idp, provider = acme
    token = logged_in(sp_initiated(api, idp, provider, email="sam@corp.example"))["token"]
    stored = saml_store.get_provider(provider["id"])
    # The API refuses an expired certificate, so it expires as time does: in the stored item.
    now = datetime.now(UTC)
    _, expired = certificate_pair(not_before=now - timedelta(days=2), not_after=now - timedelta(days=1))
    saml_store.replace_provider(replace(stored, certificate=expired), stored.updated_at)
    assert api.get("/user", token=token).status == 401
