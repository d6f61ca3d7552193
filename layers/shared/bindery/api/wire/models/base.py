"""What every response model shares: unknown fields refused, optional fields left out when unset, and
stored values outside an enum served as its default (`stored_or`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from aws_lambda_powertools import Logger
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, WrapValidator
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


# What a stored value may get wrong and still be served (as the field's default): a value outside the
# enum, or of another scalar type. Anything else (a missing field, an unknown one, a wrong nesting) is
# Bindery's bug and fails the response as before.
_STORED_VALUE_ERRORS = frozenset({"literal_error", "enum", "bool_type", "bool_parsing", "string_type"})
_log = Logger(service="wire")


def stored_or(default: Any) -> WrapValidator:
    """For a response field that shows a value read from the table, as written by an import, an older
    Bindery or a hand edit: a value the field's type refuses is served as `default` and logged with the
    stored item's key (the mapper's validation context `item`, the page being validated `page`), so that
    one stored value never makes a read answer 500 (docs/content-model.md, "Values outside the spec")."""

    def validate(value: Any, handler: Callable[[Any], Any], info: ValidationInfo) -> Any:
        try:
            return handler(value)
        except ValidationError as error:
            if any(detail["type"] not in _STORED_VALUE_ERRORS for detail in error.errors()):
                raise
        context = info.context if isinstance(info.context, dict) else {}
        _log.warning("a stored value outside the response model is served as its default", extra={
            "item": context.get("item"), "page": context.get("page"), "field": info.field_name,
            "stored": repr(value)[:200], "served": default})
        return default

    return WrapValidator(validate)


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
