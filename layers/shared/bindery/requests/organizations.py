"""Request bodies of the organization endpoints."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from bindery.requests.common import Body, RoleOrGuest, StandaloneMergeRules, StoredDocument, Url

OrgTitle = Annotated[str, Field(min_length=2, max_length=255)]
EmailDomain = Annotated[
    str, Field(min_length=3, max_length=253, pattern=r"^([a-zA-Z0-9-]+\.)+[a-zA-Z]{2,63}$"),
]


Hostname = Annotated[str, Field(min_length=3, max_length=32, pattern=r"^[a-z0-9][a-z0-9-]*[a-z0-9]$")]


class SitePointer(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: Literal["site"]
    site: str = Field(min_length=1)


class CreateOrganization(Body):
    title: OrgTitle
    type: Literal["business", "community"] = "business"
    useCase: Literal[
        "internalDocs", "docsSite", "audienceControlledSite", "productDocs", "teamKnowledgeBase",
        "designSystem", "openSourceDocs", "notes", "other",
    ] | None = None
    communityType: Literal["nonProfit", "openSource", "education"] | None = None
    emailDomains: list[EmailDomain] = Field(default_factory=list, max_length=50)


class UpdateOrganization(Body):
    title: OrgTitle | None = None
    emailDomains: list[EmailDomain] | None = Field(default=None, max_length=50)
    hostname: Hostname | None = None
    defaultRole: RoleOrGuest = None
    defaultContent: SitePointer | None = None
    logo: Url | None = None
    sso: StrictBool | None = None
    ai: StrictBool | None = None
    inviteLinks: StrictBool | None = None
    mergeRules: StandaloneMergeRules | None = None


class UpdateAgentInstructions(Body):
    instructions: StoredDocument
