"""A SAML identity provider for the tests: its own RSA key and self-signed certificate, reading the
AuthnRequests Bindery redirects to it (HTTP-Redirect binding) and answering with Responses signed with
signxml (enveloped RSA-SHA256 signatures, exclusive canonicalization), as Keycloak and Okta send them."""

from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from lxml import etree
from signxml import XMLSigner

PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol"
ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion"
SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success"


def certificate_pair(name: str = "idp.example.com", *, not_before: datetime | None = None,
                     not_after: datetime | None = None) -> tuple[rsa.RSAPrivateKey, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(not_before or now - timedelta(days=1))
            .not_valid_after(not_after or now + timedelta(days=365)).sign(key, hashes.SHA256()))
    return key, cert.public_bytes(serialization.Encoding.PEM).decode()


def _t(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def authn_request(location: str) -> tuple[etree._Element, str]:
    """The AuthnRequest and RelayState of a redirect to the IdP (deflated, base64, in the query)."""
    query = parse_qs(urlsplit(location).query)
    xml = zlib.decompress(base64.b64decode(query["SAMLRequest"][0]), -15)
    return etree.fromstring(xml), query["RelayState"][0]


@dataclass
class IdP:
    entity_id: str = "https://idp.example.com/realms/acme"
    sso_url: str = "https://idp.example.com/realms/acme/protocol/saml"
    key: rsa.RSAPrivateKey = field(init=False)
    certificate: str = field(init=False)
    counter: int = 0

    def __post_init__(self) -> None:
        self.key, self.certificate = certificate_pair()

    def _pem_key(self) -> bytes:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption())

    def assertion(self, *, email: str, acs_url: str, audience: str, in_response_to: str | None = None,
                  now: datetime | None = None, lifetime: timedelta = timedelta(minutes=5),
                  name: str = "Sam Sso", assertion_id: str | None = None,
                  issuer: str | None = None) -> etree._Element:
        self.counter += 1
        now = now or datetime.now(UTC)
        until = now + lifetime
        reply = f' InResponseTo="{in_response_to}"' if in_response_to else ""
        xml = f"""<saml:Assertion xmlns:saml="{ASSERTION}" ID="{assertion_id or f'_a{self.counter}x'}"
  Version="2.0" IssueInstant="{_t(now)}">
  <saml:Issuer>{issuer or self.entity_id}</saml:Issuer>
  <saml:Subject>
    <saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">{email}</saml:NameID>
    <saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">
      <saml:SubjectConfirmationData Recipient="{acs_url}" NotOnOrAfter="{_t(until)}"{reply}/>
    </saml:SubjectConfirmation>
  </saml:Subject>
  <saml:Conditions NotBefore="{_t(now - timedelta(seconds=30))}" NotOnOrAfter="{_t(until)}">
    <saml:AudienceRestriction><saml:Audience>{audience}</saml:Audience></saml:AudienceRestriction>
  </saml:Conditions>
  <saml:AuthnStatement AuthnInstant="{_t(now)}" SessionIndex="s1">
    <saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext>
  </saml:AuthnStatement>
  <saml:AttributeStatement>
    <saml:Attribute Name="displayName"><saml:AttributeValue>{name}</saml:AttributeValue></saml:Attribute>
  </saml:AttributeStatement>
</saml:Assertion>"""
        return etree.fromstring(xml)

    def sign(self, element: etree._Element, key: rsa.RSAPrivateKey | None = None,
             certificate: str | None = None) -> etree._Element:
        """`element` with an enveloped signature placed after its Issuer, as SAML's schema wants it."""
        pem = (key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption()) if key else self._pem_key())
        signed: etree._Element = XMLSigner(c14n_algorithm="http://www.w3.org/2001/10/xml-exc-c14n#").sign(
            element, key=pem, cert=certificate or self.certificate)
        signature = signed.find("{http://www.w3.org/2000/09/xmldsig#}Signature")
        issuer = signed.find(f"{{{ASSERTION}}}Issuer")
        if signature is not None and issuer is not None:
            signed.remove(signature)
            issuer.addnext(signature)
        return signed

    def response(self, assertion: etree._Element, *, destination: str, in_response_to: str | None = None,
                 sign_response: bool = False) -> etree._Element:
        reply = f' InResponseTo="{in_response_to}"' if in_response_to else ""
        self.counter += 1
        response = etree.fromstring(
            f'<samlp:Response xmlns:samlp="{PROTOCOL}" xmlns:saml="{ASSERTION}" ID="_r{self.counter}x" '
            f'Version="2.0" IssueInstant="{_t(datetime.now(UTC))}" Destination="{destination}"{reply}>'
            f"<saml:Issuer>{self.entity_id}</saml:Issuer>"
            f'<samlp:Status><samlp:StatusCode Value="{SUCCESS}"/></samlp:Status>'
            "</samlp:Response>")
        response.append(assertion)
        return self.sign(response) if sign_response else response

    def login_response(self, *, email: str, acs_url: str, audience: str, in_response_to: str | None = None,
                       sign_response: bool = False, **kw: object) -> etree._Element:
        """A response as an IdP sends it: the assertion signed (and the response too if asked)."""
        assertion = self.assertion(email=email, acs_url=acs_url, audience=audience,
                                   in_response_to=in_response_to, **kw)  # type: ignore[arg-type]
        signed = assertion if sign_response else self.sign(assertion)
        return self.response(signed, destination=acs_url, in_response_to=in_response_to,
                             sign_response=sign_response)


def encoded(element: etree._Element) -> str:
    return base64.b64encode(etree.tostring(element)).decode()
