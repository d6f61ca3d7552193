"""Request bodies of the collection endpoints (createCollection and updateCollectionById of the spec)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, RoleValue

CollectionTitle = Annotated[str, Field(max_length=50)]
CollectionDescription = Annotated[str, Field(max_length=100)]
CollectionRef = Annotated[str, Field(min_length=1, max_length=128)]
DefaultLevel = RoleValue | Literal["inherit"] | None


class CreateCollection(Body):
    title: CollectionTitle | None = None
    parent: CollectionRef | None = None


class UpdateCollection(Body):
    """Every field is optional; which were sent is `model_fields_set`. `defaultLevel` may be null (only
    those granted a role see the collection), `title` and `description` may not."""

    title: CollectionTitle | None = None
    description: CollectionDescription | None = None
    defaultLevel: DefaultLevel = None

    @model_validator(mode="after")
    def _not_null(self) -> UpdateCollection:
        for name in ("title", "description"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise PydanticCustomError("not_null", "{name}: may not be null", {"name": name})
        return self
