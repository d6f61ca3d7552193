"""What every response model shares: unknown fields refused, optional fields left out when unset."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

T = TypeVar("T")


def _is_none(value: object) -> bool:
    return value is None


# A field the reference spec marks optional (and not nullable): the wire leaves it out rather than send
# `null`. Powertools serializes returned models with every field, so the exclusion is the field's own.
Omitted = Annotated[T | SkipJsonSchema[None], Field(exclude_if=_is_none)]


def _no_null_defaults(schema: dict[str, Any]) -> None:
    """An omitted field has no default on the wire: it is absent (pydantic would document `null`)."""
    for prop in (schema.get("properties") or {}).values():
        if isinstance(prop, dict) and "default" in prop and prop["default"] is None:
            del prop["default"]


class WireModel(BaseModel):
    """A response shape. A field the model does not name is a bug in Bindery, not something to drop
    silently on the way out: it fails the response (and the tests) instead."""

    # defer_build: a model's validator and serializer are built when it is first used, not when its module
    # loads. A function imports the models of all its routes; one invocation uses a few (the cold start,
    # bench/README.md "Cold start").
    model_config = ConfigDict(extra="forbid", json_schema_extra=_no_null_defaults, defer_build=True)


class NextPage(WireModel):
    page: str


class ListPage(WireModel):
    """The spec's `List`: a page of items (declared by each listing), the next page's cursor and the
    total count over all pages (always given, though the spec makes it optional: API.md's lists)."""

    next: Omitted[NextPage] = None
    count: int
