"""SAML logins against an identity provider nobody here wrote: pysaml2's IdP (`saml2.server.Server`),
signing with Debian's xmlsec1 (local/xmlsec.py), reading Bindery's SP metadata and AuthnRequests as a
real IdP does. A successful login, and each response the ACS must refuse (docs/sso.md)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from cryptography.hazmat.primitives import serialization
from lxml import etree
from saml2 import BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS, NameID
from saml2.server import Server
from saml2.xmldsig import DIGEST_SHA1, DIGEST_SHA256, SIG_RSA_SHA1, SIG_RSA_SHA256

from local.xmlsec import xmlsec1_binary
from tests.api.members.test_members import error
from tests.api.saml_idp import ASSERTION, certificate_pair
from tests.api.sso.test_sso_login import logged_in, post_acs, start
from tests.api.sso.test_sso_providers import new_provider

pytestmark = pytest.mark.repository

ENTITY_ID = "https://keycloak.corp.example/realms/acme"
SSO_URL = "https://keycloak.corp.example/realms/acme/protocol/saml"


def _pysaml2_idp(tmp: Path, sp_metadata: str, *, lifetime_minutes: int = 15) -> Server:
    """A pysaml2 IdP with a key and certificate of its own (files under `tmp`, which it creates)."""
    tmp.mkdir(parents=True, exist_ok=True)
    key, certificate = certificate_pair("keycloak.corp.example")
    key_file, cert_file = tmp / "idp.key", tmp / "idp.crt"
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    cert_file.write_text(certificate)
    config = IdPConfig().load({
        "entityid": ENTITY_ID,
        "service": {"idp": {
            "endpoints": {"single_sign_on_service": [(SSO_URL, BINDING_HTTP_REDIRECT)]},
            "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
            "policy": {"default": {"lifetime": {"minutes": lifetime_minutes}}},
        }},
        "key_file": str(key_file), "cert_file": str(cert_file),
        "xmlsec_binary": xmlsec1_binary(),
        "metadata": {"inline": [sp_metadata]},
    })
    return Server(config=config)


def _certificate(idp: Server) -> str:
    return Path(idp.config.cert_file).read_text()


@pytest.fixture
def keycloak(api, tmp_path):
    """An organization with a provider registered for a pysaml2 IdP that trusts its SP metadata."""
    ada = api.org_admin()
    provider = new_provider(api, ada, label="Keycloak")
    reply = api.get(urlsplit(provider["service"]["entityID"]).path.removeprefix("/v1"))
    assert reply.status == 200, reply.body
    metadata = reply.body.decode() if isinstance(reply.body, bytes) else reply.body
    idp = _pysaml2_idp(tmp_path / "keycloak", metadata)
    return ada, idp, _trust(api, ada, provider, idp), metadata


def _trust(api, ada, provider, idp: Server):
    """Registers the IdP's entity ID, SSO URL and certificate on the provider (which becomes active)."""
    reply = api.patch(f"/orgs/{ada.org_id}/saml/{provider['id']}", token=ada.token,
                      body={"entityID": ENTITY_ID, "ssoURL": SSO_URL, "certificate": _certificate(idp)})
    assert reply.status == 200, reply.body
    assert reply.json()["status"] == "active"
    return reply.json()


def _respond(idp: Server, provider, *, email="kim@corp.example", in_response_to=None, audience=None,
             destination=None, sign_response=False, sha1=False) -> etree._Element:
    service = provider["service"]
    xml = idp.create_authn_response(
        identity={"mail": [email], "givenName": ["Kim"], "sn": ["Keycloak"]},
        in_response_to=in_response_to, destination=destination or service["acsURL"],
        sp_entity_id=audience or service["entityID"],
        name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=email),
        authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"},
        sign_assertion=True, sign_response=sign_response,
        sign_alg=SIG_RSA_SHA1 if sha1 else SIG_RSA_SHA256, digest_alg=DIGEST_SHA1 if sha1 else DIGEST_SHA256)
    return etree.fromstring(str(xml).encode())


def _request_id(idp: Server, location: str) -> tuple[str, str]:
    """pysaml2 reads the redirect Bindery sent the browser to: the AuthnRequest's ID and RelayState."""
    query = parse_qs(urlsplit(location).query)
    request = idp.parse_authn_request(query["SAMLRequest"][0], BINDING_HTTP_REDIRECT).message
    return request.id, query["RelayState"][0]


def test_a_pysaml2_idp_reads_the_authn_request_and_its_response_logs_the_user_in(api, keycloak):
    ada, idp, provider, _ = keycloak
    for sign_response in (False, True):
        request_id, relay = _request_id(idp, start(api, provider))
        response = _respond(idp, provider, in_response_to=request_id, sign_response=sign_response)
        fragment = logged_in(post_acs(api, provider, response, relay))
        me = api.get("/user", token=fragment["token"]).json()
        assert (me["email"], me["displayName"]) == ("kim@corp.example", "Kim Keycloak")
        assert fragment["organization"] == ada.org_id


def _refused(reply, words):
    message = error(reply, 403)
    assert words.lower() in message.lower(), message


def test_a_response_signed_with_sha1_pysaml2s_default_is_refused(api, keycloak):
    # pysaml2 signs with RSA-SHA1 unless told otherwise; SHA-1 signatures can be forged (docs/sso.md).
    _, idp, provider, _ = keycloak
    _refused(post_acs(api, provider, _respond(idp, provider, sha1=True)), "RSA_SHA1")


def test_a_response_from_another_pysaml2_idp_with_the_same_entity_id_is_refused(api, keycloak, tmp_path):
    _, _, provider, metadata = keycloak
    impostor = _pysaml2_idp(tmp_path / "impostor", metadata)
    _refused(post_acs(api, provider, _respond(impostor, provider)), "signature")


def test_a_tampered_pysaml2_assertion_is_refused(api, keycloak):
    _, idp, provider, _ = keycloak
    response = _respond(idp, provider)
    response.find(f".//{{{ASSERTION}}}NameID").text = "ada@example.com"
    _refused(post_acs(api, provider, response), "signature")


def test_a_signature_wrapped_pysaml2_response_never_logs_in_the_unsigned_subject(api, keycloak):
    _, idp, provider, _ = keycloak
    response = _respond(idp, provider, email="kim@corp.example")
    signed = response.find(f"{{{ASSERTION}}}Assertion")
    evil = etree.fromstring(etree.tostring(signed))
    evil.set("ID", "_evil")
    evil.find(f"{{{ASSERTION}}}Subject/{{{ASSERTION}}}NameID").text = "ada@example.com"
    for signature in evil.findall("{http://www.w3.org/2000/09/xmldsig#}Signature"):
        evil.remove(signature)
    response.insert(list(response).index(signed), evil)
    _refused(post_acs(api, provider, response), "exactly one assertion")


def test_pysaml2_responses_with_a_wrong_audience_destination_or_request_are_refused(api, keycloak):
    _, idp, provider, _ = keycloak
    _refused(post_acs(api, provider, _respond(idp, provider, audience="https://elsewhere.example/sp")),
             "audience")
    _refused(post_acs(api, provider, _respond(idp, provider, destination="https://elsewhere.example/acs")),
             "destination")
    _refused(post_acs(api, provider, _respond(idp, provider, in_response_to="_never-sent")), "inresponseto")


def test_a_replayed_pysaml2_assertion_is_refused(api, keycloak):
    _, idp, provider, _ = keycloak
    response = _respond(idp, provider)
    assert "token" in logged_in(post_acs(api, provider, response))
    _refused(post_acs(api, provider, response), "replay")


def test_an_expired_pysaml2_assertion_is_refused(api, keycloak, tmp_path):
    ada, _, provider, metadata = keycloak
    # An IdP whose assertions expire before they are made (a lifetime in the past) stands for one posted
    # long after it was issued; its certificate is the registered one, so only the time is wrong.
    stale = _pysaml2_idp(tmp_path / "stale", metadata, lifetime_minutes=-30)
    provider = _trust(api, ada, provider, stale)
    _refused(post_acs(api, provider, _respond(stale, provider)), "expired")
