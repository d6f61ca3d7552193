"""Verifying a `<samlp:Response>` posted to the ACS (SAML Core §3.2.2, Profiles §4.1.4).

Only what the IdP signed is read: signxml verifies the signature against the provider's certificate
(never a key the message brings along) and hands back the signed element, re-parsed from the bytes the
digest covered. When the Response is signed its one Assertion is taken from that signed copy; when only
the Assertion is, the Assertion is that signed copy and the unsigned envelope is trusted for nothing but
its status. So an assertion slipped beside or around the signed one (signature wrapping) is never read,
and a message with more than one assertion is refused outright.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import datetime, timedelta

from cryptography import x509
from lxml import etree
from signxml.exceptions import InvalidCertificate, InvalidDigest, InvalidInput, InvalidSignature
from signxml.verifier import SignatureConfiguration, XMLVerifier

from bindery.engines.saml.authn_requests import ASSERTION, EMAIL_FORMAT, PROTOCOL

SKEW = timedelta(seconds=120)  # how far the IdP's clock may be from ours
SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success"
BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer"
NS = {"samlp": PROTOCOL, "saml": ASSERTION, "ds": "http://www.w3.org/2000/09/xmldsig#"}
EMAIL_ATTRIBUTES = ("email", "mail", "emailaddress", "urn:oid:0.9.2342.19200300.100.1.3",
                    "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress")
NAME_ATTRIBUTES = ("displayname", "name", "urn:oid:2.16.840.1.113730.3.1.241",
                   "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name")
FIRST_NAME = ("firstname", "givenname", "urn:oid:2.5.4.42",
              "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname")
LAST_NAME = ("lastname", "surname", "sn", "urn:oid:2.5.4.4",
             "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname")


class MalformedResponse(ValueError):
    """The posted value is not a SAML response at all (400)."""


class ResponseRefused(ValueError):
    """A SAML response that must not log anyone in, and why (403)."""


@dataclass(frozen=True)
class Expected:
    """What the response must say to be for us, now."""

    certificate: x509.Certificate
    idp_entity_id: str
    sp_entity_id: str
    acs_url: str
    now: datetime


@dataclass(frozen=True)
class VerifiedAssertion:
    id: str
    email: str
    display_name: str
    in_response_to: str | None  # None: an IdP-initiated login
    expires_at: datetime  # after this the assertion is refused anyway: how long to remember its id


def parse_response(posted: str) -> etree._Element:
    try:
        raw = base64.b64decode("".join(posted.split()), validate=True)
    except (binascii.Error, ValueError):
        raise MalformedResponse("SAMLResponse: not base64") from None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(raw, parser=parser)
    except etree.XMLSyntaxError:
        raise MalformedResponse("SAMLResponse: not XML") from None
    if root.tag != f"{{{PROTOCOL}}}Response":
        raise MalformedResponse("SAMLResponse: not a samlp:Response")
    return root


def verify_response(root: etree._Element, expected: Expected) -> VerifiedAssertion:
    status = root.find("samlp:Status/samlp:StatusCode", NS)
    if status is None or status.get("Value") != SUCCESS:
        reported = status.get("Value") if status is not None else "no status"
        raise ResponseRefused(f"the identity provider reports {reported}")
    if root.findall(".//saml:EncryptedAssertion", NS):
        raise ResponseRefused("encrypted assertions are not supported: turn assertion encryption off")
    if len(root.findall(".//saml:Assertion", NS)) != 1:
        raise ResponseRefused("a response must carry exactly one assertion")
    signed = _signed_element(root, expected.certificate)
    if signed.tag == f"{{{PROTOCOL}}}Response":
        _check_destination(signed, expected)
        _check_issuer(signed, expected, required=False)
        assertions = signed.findall("saml:Assertion", NS)
        if len(assertions) != 1:
            raise ResponseRefused("the signed response must carry exactly one assertion")
        assertion = assertions[0]
    elif signed.tag == f"{{{ASSERTION}}}Assertion":
        _check_destination(root, expected)
        assertion = signed
    else:
        raise ResponseRefused("the signature covers neither the response nor its assertion")
    return _read_assertion(assertion, expected)


def _signed_element(root: etree._Element, certificate: x509.Certificate) -> etree._Element:
    config = SignatureConfiguration(expect_references=1)
    try:
        result = XMLVerifier().verify(root, x509_cert=certificate, expect_config=config)
    except (InvalidSignature, InvalidDigest, InvalidCertificate) as error:
        raise ResponseRefused(
            f"the signature does not verify with the provider's certificate ({error})") from None
    except InvalidInput as error:
        raise ResponseRefused(f"the response is not signed as SAML requires ({error})") from None
    signed = result.signed_xml  # type: ignore[union-attr]
    if not isinstance(signed, etree._Element):
        raise ResponseRefused("the signature covers no element")
    return signed


def _check_destination(response: etree._Element, expected: Expected) -> None:
    destination = response.get("Destination")
    if destination is not None and destination != expected.acs_url:
        raise ResponseRefused(f"Destination {destination} is not this provider's ACS URL {expected.acs_url}")


def _check_issuer(element: etree._Element, expected: Expected, *, required: bool) -> None:
    issuer = element.find("saml:Issuer", NS)
    if issuer is None:
        if required:
            raise ResponseRefused("the assertion names no Issuer")
        return
    if (issuer.text or "").strip() != expected.idp_entity_id:
        raise ResponseRefused(f"Issuer {(issuer.text or '').strip()} is not the provider's entityID")


def _instant(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ResponseRefused(f"{name} is not a date-time") from None


def _read_assertion(assertion: etree._Element, expected: Expected) -> VerifiedAssertion:
    _check_issuer(assertion, expected, required=True)
    assertion_id = assertion.get("ID")
    if not assertion_id or len(assertion_id) > 256:
        raise ResponseRefused("the assertion has no ID of at most 256 characters")
    expires_at = _check_conditions(assertion, expected)
    in_response_to, confirmed_until = _check_subject_confirmation(assertion, expected)
    email = _email(assertion)
    return VerifiedAssertion(id=assertion_id, email=email, display_name=_display_name(assertion, email),
                             in_response_to=in_response_to, expires_at=min(expires_at, confirmed_until))


def _check_conditions(assertion: etree._Element, expected: Expected) -> datetime:
    conditions = assertion.find("saml:Conditions", NS)
    if conditions is None:
        raise ResponseRefused("the assertion has no Conditions")
    not_before = _instant(conditions.get("NotBefore"), "NotBefore")
    not_on_or_after = _instant(conditions.get("NotOnOrAfter"), "NotOnOrAfter")
    if not_before is not None and expected.now + SKEW < not_before:
        raise ResponseRefused("the assertion is not valid yet (NotBefore)")
    if not_on_or_after is None:
        raise ResponseRefused("the assertion has no NotOnOrAfter")
    if expected.now - SKEW >= not_on_or_after:
        raise ResponseRefused("the assertion has expired (NotOnOrAfter)")
    audiences = [(a.text or "").strip()
                 for a in conditions.findall("saml:AudienceRestriction/saml:Audience", NS)]
    if expected.sp_entity_id not in audiences:
        raise ResponseRefused(
            f"the assertion's Audience is not this provider's entityID {expected.sp_entity_id}")
    return not_on_or_after + SKEW


def _check_subject_confirmation(assertion: etree._Element, expected: Expected) -> tuple[str | None, datetime]:
    """A bearer confirmation for our ACS, still valid; its InResponseTo (None: IdP-initiated)."""
    reasons: list[str] = []
    for confirmation in assertion.findall("saml:Subject/saml:SubjectConfirmation", NS):
        data = confirmation.find("saml:SubjectConfirmationData", NS)
        if confirmation.get("Method") != BEARER or data is None:
            reasons.append("not a bearer confirmation")
            continue
        until = _instant(data.get("NotOnOrAfter"), "SubjectConfirmationData NotOnOrAfter")
        if data.get("Recipient") != expected.acs_url:
            reasons.append(f"Recipient {data.get('Recipient')} is not this provider's ACS URL")
        elif until is None or expected.now - SKEW >= until:
            reasons.append("the subject confirmation has expired")
        else:
            return data.get("InResponseTo"), until + SKEW
    raise ResponseRefused("no valid bearer SubjectConfirmation: " + ("; ".join(reasons) or "none"))


def _attributes(assertion: etree._Element) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for attribute in assertion.findall("saml:AttributeStatement/saml:Attribute", NS):
        values = [(v.text or "").strip() for v in attribute.findall("saml:AttributeValue", NS)]
        found.setdefault((attribute.get("Name") or "").lower(), []).extend(v for v in values if v)
    return found


def _first(attributes: dict[str, list[str]], names: tuple[str, ...]) -> str | None:
    return next((attributes[name][0] for name in names if attributes.get(name)), None)


def _email(assertion: etree._Element) -> str:
    name_id = assertion.find("saml:Subject/saml:NameID", NS)
    if name_id is not None and name_id.get("Format") == EMAIL_FORMAT and "@" in (name_id.text or ""):
        return (name_id.text or "").strip()
    email = _first(_attributes(assertion), EMAIL_ATTRIBUTES)
    if email and "@" in email:
        return email
    raise ResponseRefused("the assertion names no email (an emailAddress NameID or an email attribute)")


def _display_name(assertion: etree._Element, email: str) -> str:
    attributes = _attributes(assertion)
    name = _first(attributes, NAME_ATTRIBUTES)
    if name:
        return name
    parts = [p for p in (_first(attributes, FIRST_NAME), _first(attributes, LAST_NAME)) if p]
    return " ".join(parts) or email.split("@", 1)[0]
