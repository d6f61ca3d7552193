"""Request bodies of the move and transfer endpoints (moveSpace, moveCollection, transferSpace,
transferCollection of the spec)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body

ContentRef = Annotated[str, Field(min_length=1, max_length=128)]


class SpacePointer(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: Literal["space"]
    space: ContentRef

    @property
    def kind(self) -> str:
        return "space"

    @property
    def id(self) -> str:
        return self.space


class CollectionPointer(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    type: Literal["collection"]
    collection: ContentRef

    @property
    def kind(self) -> str:
        return "collection"

    @property
    def id(self) -> str:
        return self.collection


Pointer = Annotated[SpacePointer | CollectionPointer, Field(discriminator="type")]


class ContentPosition(BaseModel):
    """`before`: the moved item lands right before that sibling; `after`: right after it; both: between
    the two, which must be next to each other; neither: at the end."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    before: Pointer | None = None
    after: Pointer | None = None


class MoveContent(Body):
    """`parent` omitted keeps the parent, null is the organization's top level; `position` omitted puts
    the item at the end of its (new) parent."""

    parent: ContentRef | None = None
    position: ContentPosition | None = None

    @model_validator(mode="after")
    def _something(self) -> MoveContent:
        if not self.model_fields_set:
            raise PydanticCustomError("empty", "send parent, position or both")
        if "position" in self.model_fields_set and self.position is None:
            raise PydanticCustomError("not_null", "position: may not be null (omit it to move to the end)")
        return self


class TransferContent(Body):
    organization: ContentRef
