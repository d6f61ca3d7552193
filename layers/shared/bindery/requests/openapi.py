"""Request bodies of OpenAPI specifications (createOpenAPISpec, createOrUpdateOpenAPISpecBySlug,
updateOpenAPISpecBySlug)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, Text, Url

SpecSlug = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")]
Visibility = Literal["private", "public"]


class SpecSource(Body):
    """The spec's `OpenAPISpecSource`: `{url}` or `{text}`, exactly one of them."""

    url: Url | None = None
    text: Annotated[Text, Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _one_of(self) -> SpecSource:
        if (self.url is None) == (self.text is None):
            raise PydanticCustomError("source_kind", "give either url or text (exactly one of them)")
        return self


class CreateSpec(Body):
    slug: SpecSlug
    source: SpecSource


class PutSpec(Body):
    source: SpecSource


class UpdateSpec(Body):
    visibility: Visibility
