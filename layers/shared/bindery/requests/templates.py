"""Request body of `POST /spaces/{spaceId}/content/template` (the spec's `ApplySpaceTemplate`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bindery.requests.common import Body

# docs/templates.md describes each one.
TemplateId = Literal["blank", "getting-started", "openapi"]
Id = Annotated[str, Field(min_length=1, max_length=256)]


class _Ref(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)


class FileRef(_Ref):
    kind: Literal["file"]
    file: Id


class UrlRef(_Ref):
    kind: Literal["url"]
    url: Annotated[str, Field(min_length=1, max_length=2048)]


class PageRef(_Ref):
    kind: Literal["page"]
    page: Id
    space: Id | None = None


class AnchorRef(_Ref):
    kind: Literal["anchor"]
    anchor: Id
    space: Id | None = None
    page: Id | None = None


class UserRef(_Ref):
    kind: Literal["user"]
    user: Id


class CollectionRef(_Ref):
    kind: Literal["collection"]
    collection: Id


class SpaceRef(_Ref):
    kind: Literal["space"]
    space: Id


class ReusableContentRef(_Ref):
    kind: Literal["reusable-content"]
    reusableContent: Id
    space: Id | None = None


class OpenApiRef(_Ref):
    kind: Literal["openapi"]
    spec: Id


ContentRef = Annotated[FileRef | UrlRef | PageRef | AnchorRef | UserRef | CollectionRef | SpaceRef
                       | ReusableContentRef | OpenApiRef, Field(discriminator="kind")]


class SpaceTemplateParams(Body):
    contentRefs: dict[Annotated[str, Field(min_length=1, max_length=100)], ContentRef] = Field(
        default_factory=dict, max_length=20)


class ApplySpaceTemplate(Body):
    id: TemplateId
    params: SpaceTemplateParams = Field(default_factory=SpaceTemplateParams)
