"""Where content is, and what links to what: a link's target and the pages that refer to it (the reference
spec's `ContentLocation`, `ContentReferenceUsage`). Apart from the revision models because each location
names its organization and space: a function that reads content does not import those models for it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.change_requests import ChangeRequest
from bindery.api.responses.common import JSONObject
from bindery.api.responses.content import PageUnion, RevisionFile, RevisionReusableContent
from bindery.api.responses.organizations import Organization
from bindery.api.responses.spaces import Space


class ChangeRequestContext(WireModel):
    type: Literal["changeRequest"]
    changeRequest: ChangeRequest


class LocationBase(WireModel):
    organization: Organization
    space: Space
    versionContext: Omitted[ChangeRequestContext] = None


class ContentLocationPage(LocationBase):
    kind: Literal["page"]
    page: PageUnion
    internalLocation: Omitted[JSONObject] = None


class ContentLocationFile(LocationBase):
    kind: Literal["file"]
    file: RevisionFile


class ContentLocationReusableContent(LocationBase):
    kind: Literal["reusable-content"]
    reusableContent: RevisionReusableContent


class ContentLocationURL(WireModel):
    kind: Literal["url"]
    url: str


ContentLocation = Annotated[
    ContentLocationPage | ContentLocationFile | ContentLocationReusableContent | ContentLocationURL,
    Field(discriminator="kind"),
]


class ContentLocationList(ListPage):
    items: list[ContentLocation]


class ContentReferenceUsage(WireModel):
    status: Literal["ok", "broken", "in-app"]
    relation: Literal["reference", "dependsOn"]
    targetReference: Omitted[ContentLocation] = None
    locationReferences: list[ContentLocation]


class BrokenLinks(WireModel):
    total: int
    changeRequest: Omitted[int] = None


class ContentReferencesStats(WireModel):
    total: int
    broken: BrokenLinks


class ContentReferenceUsageList(ListPage):
    stats: ContentReferencesStats
    items: list[ContentReferenceUsage]
