"""The service provider's metadata (SAML Metadata §2.4.4): what an IdP imports to know Bindery's
entity ID and ACS URL (Keycloak's "Import from URL", Okta's "SP metadata")."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from bindery.engines.saml.authn_requests import EMAIL_FORMAT, POST_BINDING
from bindery.engines.saml.endpoints import ServiceEndpoints

METADATA = "urn:oasis:names:tc:SAML:2.0:metadata"
CONTENT_TYPE = "application/samlmetadata+xml"


def sp_metadata(service: ServiceEndpoints) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<md:EntityDescriptor xmlns:md="{METADATA}" entityID={quoteattr(service.entity_id)}>'
        '<md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" '
        'protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">'
        f"<md:NameIDFormat>{EMAIL_FORMAT}</md:NameIDFormat>"
        f'<md:AssertionConsumerService Binding="{POST_BINDING}" Location={quoteattr(service.acs_url)} '
        'index="0" isDefault="true"/>'
        "</md:SPSSODescriptor></md:EntityDescriptor>")
