"""Logging in through a SAML provider: the start redirect, the ACS and what a login creates, and every
response the ACS must refuse (docs/sso.md). The IdP is tests.api.saml_idp: its own key and certificate,
signing with signxml as a real IdP does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from lxml import etree

from bindery.store import members as member_store
from tests.api.members.test_members import error, join, team
from tests.api.saml_idp import ASSERTION, IdP, authn_request, encoded
from tests.api.sso.test_sso_providers import complete, new_provider

pytestmark = pytest.mark.repository


@pytest.fixture
def setup(api):
    ada = api.org_admin()
    idp = IdP()
    writers = team(api, ada, "Writers")
    provider = new_provider(api, ada, **complete(idp, defaultTeam=writers, defaultRole="edit"))
    return ada, idp, provider, writers


def _path(url):
    return urlsplit(url).path.removeprefix("/v1")


def start(api, provider):
    reply = api.get(_path(provider["service"]["startURL"]))
    assert reply.status == 302, reply.body
    return reply.headers["Location"]


def post_acs(api, provider, response, relay_state=None):
    form = {"SAMLResponse": encoded(response)}
    if relay_state:
        form["RelayState"] = relay_state
    return api.call("POST", _path(provider["service"]["acsURL"]), raw=urlencode(form).encode(),
                    headers={"Content-Type": "application/x-www-form-urlencoded"})


def answer(idp, provider, request_id=None, *, email="sam@corp.example", **kw):
    service = provider["service"]
    return idp.login_response(email=email, acs_url=service["acsURL"], audience=service["entityID"],
                              in_response_to=request_id, **kw)


def logged_in(reply):
    assert reply.status == 303, reply.body
    return {k: v[0] for k, v in parse_qs(urlsplit(reply.headers["Location"]).fragment).items()}


def sp_initiated(api, idp, provider, **kw):
    request, relay = authn_request(start(api, provider))
    return post_acs(api, provider, answer(idp, provider, request.get("ID"), **kw), relay)


def test_start_redirects_to_the_idp_with_a_deflated_authn_request(api, setup):
    _, idp, provider, _ = setup
    location = start(api, provider)
    assert location.startswith(idp.sso_url + "?")
    request, relay = authn_request(location)
    assert request.tag == "{urn:oasis:names:tc:SAML:2.0:protocol}AuthnRequest"
    assert request.get("AssertionConsumerServiceURL") == provider["service"]["acsURL"]
    assert request.get("Destination") == idp.sso_url
    assert request.findtext(f"{{{ASSERTION}}}Issuer") == provider["service"]["entityID"]
    assert relay == request.get("ID")


def test_sp_initiated_login_creates_the_user_member_of_the_default_team_with_a_working_token(api, setup):
    ada, idp, provider, writers = setup
    fragment = logged_in(sp_initiated(api, idp, provider, name="Sam Sso"))
    assert fragment["organization"] == ada.org_id
    token = fragment["token"]
    me = api.get("/user", token=token)
    assert me.status == 200, me.body
    assert (me.json()["email"], me.json()["displayName"]) == ("sam@corp.example", "Sam Sso")
    member = api.get(f"/orgs/{ada.org_id}/members/{fragment['user']}", token=ada.token).json()
    assert (member["role"], member["sso"], member["teams"]) == ("edit", True, 1)
    teams = api.get(f"/orgs/{ada.org_id}/members/{fragment['user']}/teams", token=ada.token).json()
    assert [t["team"]["id"] for t in teams["items"]] == [writers]
    assert api.get(f"/orgs/{ada.org_id}", token=token).status == 200


def linked(api, idp, provider, who, email, *, org_id=None):
    """`who`, signed in, links the IdP identity `email` to their account: the link route's URL is the
    IdP's, with an AuthnRequest the answering ACS binds to them (docs/sso.md, "Accounts")."""
    org_id = org_id or provider_org(provider)
    reply = api.post(f"/orgs/{org_id}/saml/{provider['id']}/link", token=who.token)
    assert reply.status == 200, reply.body
    assert reply.json()["object"] == "saml-link"
    request, relay = authn_request(reply.json()["url"])
    return post_acs(api, provider, answer(idp, provider, request.get("ID"), email=email), relay)


def provider_org(provider):
    return urlsplit(provider["urls"]["location"]).path.split("/orgs/")[1].split("/")[0]


def test_a_later_login_signs_in_the_account_the_first_one_created_changing_nothing_but_the_token(api, setup):
    ada, idp, provider, _ = setup
    first = logged_in(sp_initiated(api, idp, provider, email="bob@corp.example"))
    second = logged_in(post_acs(api, provider, answer(idp, provider, email="BOB@corp.example")))
    assert second["user"] == first["user"]
    assert second["token"] != first["token"]
    member = member_store.get_member(ada.org_id, first["user"])
    assert (member.sso, member.teams, member.role) == (True, 1, "edit")
    assert api.get("/user", token=first["token"]).json()["id"] == first["user"]


def test_idp_initiated_login_without_in_response_to_is_accepted(api, setup):
    _, idp, provider, _ = setup
    assert "token" in logged_in(post_acs(api, provider, answer(idp, provider)))


def test_a_signed_response_is_accepted_too(api, setup):
    _, idp, provider, _ = setup
    request, relay = authn_request(start(api, provider))
    response = answer(idp, provider, request.get("ID"), sign_response=True)
    assert "token" in logged_in(post_acs(api, provider, response, relay))


def _refused(reply, words):
    message = error(reply, 403)
    assert words in message, message


def test_a_response_signed_by_another_key_is_refused(api, setup):
    _, idp, provider, _ = setup
    impostor = IdP(entity_id=idp.entity_id)
    _refused(post_acs(api, provider, answer(impostor, provider)), "signature")


def test_a_tampered_assertion_is_refused(api, setup):
    _, idp, provider, _ = setup
    response = answer(idp, provider)
    name_id = response.find(f".//{{{ASSERTION}}}NameID")
    name_id.text = "ada@example.com"
    _refused(post_acs(api, provider, response), "signature")


def test_a_signature_wrapping_attack_logs_in_only_as_the_signed_subject_or_not_at_all(api, setup):
    _, idp, provider, _ = setup
    genuine = answer(idp, provider, email="sam@corp.example")
    signed = genuine.find(f"{{{ASSERTION}}}Assertion")
    # The classic wrapping: an evil unsigned assertion where the code reads, the signed one hidden aside.
    evil = etree.fromstring(etree.tostring(signed))
    evil.set("ID", "_evil")
    evil.find(f".//{{{ASSERTION}}}NameID").text = "ada@example.com"
    evil.remove(evil.find("{http://www.w3.org/2000/09/xmldsig#}Signature"))
    genuine.remove(signed)
    genuine.append(evil)
    extensions = etree.SubElement(genuine, "{urn:oasis:names:tc:SAML:2.0:protocol}Extensions")
    extensions.append(signed)
    _refused(post_acs(api, provider, genuine), "exactly one assertion")
    # Moved inside the signed assertion's place, with the evil one first: still only the signed one counts.
    wrapped = answer(idp, provider, email="sam@corp.example")
    signed = wrapped.find(f"{{{ASSERTION}}}Assertion")
    signed.addprevious(evil)
    _refused(post_acs(api, provider, wrapped), "exactly one assertion")


def test_an_expired_assertion_is_refused(api, setup):
    _, idp, provider, _ = setup
    old = datetime.now(UTC) - timedelta(hours=1)
    _refused(post_acs(api, provider, answer(idp, provider, now=old)), "expired")


def test_a_wrong_audience_is_refused(api, setup):
    _, idp, provider, _ = setup
    service = provider["service"]
    response = idp.login_response(email="sam@corp.example", acs_url=service["acsURL"],
                                  audience="https://someone-else.example/sp")
    _refused(post_acs(api, provider, response), "Audience")


def test_a_wrong_destination_is_refused(api, setup):
    _, idp, provider, _ = setup
    service = provider["service"]
    elsewhere = "https://someone-else.example/acs"
    assertion = idp.sign(idp.assertion(email="sam@corp.example", acs_url=elsewhere,
                                       audience=service["entityID"]))
    _refused(post_acs(api, provider, idp.response(assertion, destination=elsewhere)), "Destination")
    # The envelope's Destination right, the signed Recipient wrong: still refused.
    right = idp.response(idp.sign(idp.assertion(email="sam@corp.example", acs_url=elsewhere,
                                                audience=service["entityID"])),
                         destination=service["acsURL"])
    _refused(post_acs(api, provider, right), "Recipient")


def test_a_wrong_issuer_is_refused(api, setup):
    _, idp, provider, _ = setup
    _refused(post_acs(api, provider, answer(idp, provider, issuer="https://other-idp.example")), "Issuer")


def test_a_replayed_assertion_is_refused(api, setup):
    _, idp, provider, _ = setup
    response = answer(idp, provider)
    assert "token" in logged_in(post_acs(api, provider, response))
    _refused(post_acs(api, provider, response), "replay")


def test_an_unknown_or_answered_in_response_to_is_refused(api, setup):
    _, idp, provider, _ = setup
    _refused(post_acs(api, provider, answer(idp, provider, "_never-sent")), "InResponseTo")
    request, relay = authn_request(start(api, provider))
    assert "token" in logged_in(post_acs(api, provider, answer(idp, provider, request.get("ID")), relay))
    # Another assertion answering the same request: the request was single-use.
    again = answer(idp, provider, request.get("ID"))
    _refused(post_acs(api, provider, again, relay), "InResponseTo")


def test_garbage_is_400_and_pending_or_unknown_providers_do_not_log_in(api, setup):
    ada, _, provider, _ = setup
    acs = _path(provider["service"]["acsURL"])
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    assert "SAMLResponse" in error(api.call("POST", acs, raw=b"RelayState=x", headers=form), 400)
    assert "SAMLResponse" in error(api.call("POST", acs, raw=b"SAMLResponse=%%%", headers=form), 400)
    pending = new_provider(api, ada, label="Pending")
    assert "configured" in error(api.get(_path(pending["service"]["startURL"])), 400)
    error(api.get("/saml/no-such-provider/start"), 404)
    metadata = api.get(_path(provider["service"]["entityID"]))
    assert metadata.status == 200
    descriptor = etree.fromstring(metadata.body)
    assert descriptor.get("entityID") == provider["service"]["entityID"]


def test_an_organization_enforcing_sso_lets_its_sso_members_act_only_with_sso_tokens(api, setup):
    ada, idp, provider, _ = setup
    bob = join(api, ada.org_id, "Bob", "read", email="bob@corp.example")
    sso_token = logged_in(linked(api, idp, provider, bob, "bob@corp.example", org_id=ada.org_id))["token"]
    org = f"/orgs/{ada.org_id}"
    # SSO not enforced yet: both of Bob's tokens work.
    assert api.get(org, token=bob.token).status == 200
    assert api.patch(org, token=ada.token, body={"sso": True}).json()["sso"] is True
    message = error(api.get(org, token=bob.token), 403)
    assert "single sign-on" in message
    assert f"/orgs/{ada.org_id}/sso" in message
    assert error(api.get(f"{org}/members", token=bob.token), 403)
    assert api.get(org, token=sso_token).status == 200
    assert api.get(f"{org}/members", token=sso_token).status == 200
    # Members not flagged sso (the admin who set it up) keep their tokens.
    assert api.get(org, token=ada.token).status == 200
    # An admin marks a member as an SSO member: their ordinary token stops working here.
    carla = join(api, ada.org_id, "Carla", "read", email="carla@corp.example")
    assert api.get(org, token=carla.token).status == 200
    marked = api.post(f"{org}/members/{carla.user_id}/sso", token=ada.token)
    assert marked.status == 200, marked.body
    assert marked.json()["sso"] is True
    assert error(api.get(org, token=carla.token), 403)
    # Spaces and collections of the organization too, not only its own endpoints.
    space = api.post(f"{org}/spaces", token=ada.token, body={"title": "Handbook"}).json()["id"]
    collection = api.post(f"{org}/collections", token=ada.token, body={"title": "Guides"}).json()["id"]
    for path in (f"/spaces/{space}", f"/spaces/{space}/content", f"/collections/{collection}"):
        assert "single sign-on" in error(api.get(path, token=carla.token), 403)
        assert api.get(path, token=ada.token).status == 200
    # Turned off again, every token works.
    api.patch(org, token=ada.token, body={"sso": False})
    assert api.get(org, token=bob.token).status == 200
    assert api.get(f"/spaces/{space}", token=carla.token).status == 200
