"""Request bodies of the site endpoints (createSite, updateSiteById, addSpaceToSite, updateSiteSpaceById
of the spec)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, StoredJson
from bindery.requests.site_kinds import SiteAgentsContext, SiteType, SiteVisibility

SiteTitle = Annotated[str, Field(min_length=2, max_length=128)]
SiteBasename = Annotated[str, Field(min_length=1, max_length=100,
                                   pattern=r"^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$")]
# The spec's SiteProxyOrigin: a host and one or more path segments, no scheme.
SiteProxyOrigin = Annotated[str, Field(max_length=512,
                                       pattern=r"^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(/[\w-]+)+$")]
SiteSpacePath = Annotated[str, Field(min_length=1, max_length=100)]
Expression = Annotated[str, Field(max_length=1024)]
Ref = Annotated[str, Field(min_length=1, max_length=128)]


class CreateSite(Body):
    type: SiteType | None = None
    title: SiteTitle | None = None
    visibility: SiteVisibility | None = None
    spaces: list[Ref] | None = None


class AdaptiveContent(Body):
    enabled: bool


class UpdateSite(Body):
    """Every field is optional (which were sent is `model_fields_set`); only `proxy` may be null."""

    title: SiteTitle | None = None
    visibility: SiteVisibility | None = None
    basename: SiteBasename | None = None
    adaptiveContent: AdaptiveContent | None = None
    agentsContext: SiteAgentsContext | None = None
    defaultSiteSpace: Ref | None = None
    defaultSiteSection: Ref | None = None
    proxy: SiteProxyOrigin | None = None

    @model_validator(mode="after")
    def _not_null(self) -> UpdateSite:
        for name in self.model_fields_set - {"proxy"}:
            if getattr(self, name) is None:
                raise PydanticCustomError("not_null", "{name}: may not be null", {"name": name})
        return self


class AddSiteSpace(Body):
    spaceId: Ref
    sectionId: Ref | None = None


class UpdateSiteSpace(Body):
    """`condition` null (or empty) removes it; `path` and `spaceId` may not be null."""

    path: SiteSpacePath | None = None
    condition: Expression | None = None
    spaceId: Ref | None = None

    @model_validator(mode="after")
    def _not_null(self) -> UpdateSiteSpace:
        for name in self.model_fields_set & {"path", "spaceId"}:
            if getattr(self, name) is None:
                raise PydanticCustomError("not_null", "{name}: may not be null", {"name": name})
        return self


ShareLinkName = Annotated[str, Field(max_length=50)]


class CreateShareLink(Body):
    name: ShareLinkName


class UpdateShareLink(Body):
    """At least one field (the spec's minProperties); neither may be null."""

    active: bool | None = None
    name: ShareLinkName | None = None

    @model_validator(mode="after")
    def _checked(self) -> UpdateShareLink:
        if not self.model_fields_set:
            raise PydanticCustomError("min_properties", "body: give active or name")
        for name in self.model_fields_set:
            if getattr(self, name) is None:
                raise PydanticCustomError("not_null", "{name}: may not be null", {"name": name})
        return self


class UpdateAdaptiveSchema(Body):
    """The schema's own shape is checked against the spec's (bindery.domain.sites.adaptive)."""

    jsonSchema: StoredJson


class UpdatePublishingAuth(Body):
    """The spec's SitePublishingAuthUpdate: `backend` required; `fallbackURL` null unsets it, omitted keeps
    it."""

    backend: Literal["custom", "integration"]
    fallbackURL: Annotated[str, Field(max_length=2048, pattern=r"^https?://\S+$")] | None = None
