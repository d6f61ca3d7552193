"""Organization, its agent instructions, invite links and the small answers of the organization
endpoints."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel, WireRoot
from bindery.api.responses.common import JSONObject, Location, MemberRoleOrGuest, Timestamp

OrganizationType = Literal["business", "community"]
OrganizationUseCase = Literal[
    "internalDocs", "docsSite", "audienceControlledSite", "productDocs", "teamKnowledgeBase",
    "designSystem", "openSourceDocs", "notes", "other",
]
BillingProduct = Literal[
    "free_2024", "plus_2024", "pro_2024", "enterprise_2024", "community_2024", "free", "plus", "pro",
    "internal",
]


class OrganizationUrls(WireModel):
    location: str
    app: str
    logo: Omitted[str] = None


class OrganizationTrial(WireModel):
    status: Literal["notapplicable", "none", "active", "ended", "expired"]
    count: int


class OrganizationPermissions(WireModel):
    view: bool
    admin: bool
    ownTeam: bool
    createContent: bool
    createOpenAPISpec: bool
    ingestConversations: bool
    viewBilling: bool
    listMembers: bool
    listTeams: bool
    listIntegrations: bool
    listInstallations: bool
    installIntegration: bool


class Organization(WireModel):
    object: Literal["organization"]
    id: str
    title: str
    createdAt: Timestamp
    emailDomains: list[str]
    hostname: Omitted[str] = None
    type: OrganizationType
    useCase: Omitted[OrganizationUseCase] = None
    communityType: Omitted[Literal["nonProfit", "openSource", "education"]] = None
    defaultRole: MemberRoleOrGuest
    defaultContent: Omitted[JSONObject] = None
    sso: bool
    ai: bool
    inviteLinks: bool
    plan: BillingProduct
    mergeRules: JSONObject
    urls: OrganizationUrls
    trial: OrganizationTrial
    permissions: OrganizationPermissions


class OrganizationList(ListPage):
    items: list[Organization]


class OrganizationsForEmailDomain(WireModel):
    organizations: list[Organization]


class Ping(WireModel):
    """POST /orgs/{organizationId}/ping: Bindery issues no visitor claims."""

    gitbookVisitorClaims: Omitted[str] = None


class OrganizationAgentInstructions(WireModel):
    object: Literal["agent-instructions"]
    instructions: JSONObject
    updatedAt: Timestamp
    updatedBy: str
    urls: Location


class InviteTarget(WireModel):
    """A space or collection named by kind and id (invite links do not embed the full shape)."""

    object: Literal["space", "collection"]
    id: str


class InviteLinkToOrganization(WireModel):
    object: Literal["invite"]
    id: str
    role: MemberRoleOrGuest
    redundant: bool


class InviteLinkToSpace(WireModel):
    object: Literal["invite"]
    id: str
    level: MemberRoleOrGuest
    redundant: bool
    space: InviteTarget


class InviteLinkToCollection(WireModel):
    object: Literal["invite"]
    id: str
    level: MemberRoleOrGuest
    redundant: bool
    collection: InviteTarget


InviteLink = InviteLinkToOrganization | InviteLinkToSpace | InviteLinkToCollection


class OrganizationInviteLink(WireRoot[InviteLink]):
    """Which kind a link is shows in its fields (`role`, or `level` and its target): unknown fields are
    refused, so exactly one of the three validates."""


class OrganizationInviteLinkList(ListPage):
    items: list[InviteLink]


class InvitedUsers(WireModel):
    """POST /orgs/{organizationId}/invites (a Bindery answer: who became a member)."""

    users: list[str]
    invited: int
