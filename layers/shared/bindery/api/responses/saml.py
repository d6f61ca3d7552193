"""OrganizationSAMLProvider and OrganizationSSOProviderLogin, as the reference spec declares them."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import Location, MemberRoleOrGuest, Timestamp
from bindery.api.responses.users import OrganizationTeam

SAMLProviderStatus = Literal["active", "pending"]


class SAMLService(WireModel):
    acsURL: str
    startURL: str
    entityID: str


class OrganizationSAMLProvider(WireModel):
    object: Literal["saml-provider"]
    id: str
    label: str
    ssoURL: str
    entityID: str
    certificate: str
    defaultTeam: Omitted[OrganizationTeam] = None
    defaultRole: MemberRoleOrGuest
    createdAt: Timestamp
    status: SAMLProviderStatus
    service: SAMLService
    urls: Location


class OrganizationSAMLProviderList(ListPage):
    items: list[OrganizationSAMLProvider]


class OrganizationSSOProviderLogin(WireModel):
    id: str
    label: str
    startURL: str


class OrganizationSSOProviderLogins(WireModel):
    items: list[OrganizationSSOProviderLogin]


class SAMLLinkStart(WireModel):
    """A Bindery extension (POST ORG/saml/{samlProviderId}/link): where to send the browser to log in at
    the IdP, so that the identity it asserts gets linked to the signed-in caller's account."""

    object: Literal["saml-link"]
    url: str
