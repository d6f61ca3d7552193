"""AuthnRequests sent with the HTTP-Redirect binding (SAML Bindings §3.4): the request is deflated
(raw DEFLATE), base64-encoded and put in the `SAMLRequest` query parameter of the IdP's SSO URL, with
the `RelayState` the IdP posts back to the ACS. Bindery signs no request (it holds no SP key); IdPs
accept unsigned requests unless told to require signed ones (docs/sso.md)."""

from __future__ import annotations

import base64
import zlib
from datetime import datetime
from urllib.parse import urlencode, urlsplit, urlunsplit
from xml.sax.saxutils import quoteattr

from bindery.engines.saml.endpoints import ServiceEndpoints

PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol"
ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion"
POST_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"


def saml_time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def authn_request_xml(request_id: str, issued_at: datetime, service: ServiceEndpoints, sso_url: str) -> str:
    # The id must be an xsd:ID (not starting with a digit): Bindery's ids get a prefix.
    return (
        f'<samlp:AuthnRequest xmlns:samlp="{PROTOCOL}" xmlns:saml="{ASSERTION}" ID={quoteattr(request_id)} '
        f'Version="2.0" IssueInstant="{saml_time(issued_at)}" Destination={quoteattr(sso_url)} '
        f'ProtocolBinding="{POST_BINDING}" AssertionConsumerServiceURL={quoteattr(service.acs_url)}>'
        f"<saml:Issuer>{_text(service.entity_id)}</saml:Issuer>"
        f'<samlp:NameIDPolicy Format="{EMAIL_FORMAT}" AllowCreate="true"/>'
        "</samlp:AuthnRequest>")


def redirect_url(sso_url: str, request_xml: str, relay_state: str) -> str:
    """The IdP's SSO URL with the deflated request and the relay state added to its own query."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw DEFLATE, no zlib header
    deflated = compressor.compress(request_xml.encode()) + compressor.flush()
    query = urlencode({"SAMLRequest": base64.b64encode(deflated).decode(), "RelayState": relay_state})
    parts = urlsplit(sso_url)
    joined = f"{parts.query}&{query}" if parts.query else query
    return urlunsplit((parts.scheme, parts.netloc, parts.path, joined, parts.fragment))


def _text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
