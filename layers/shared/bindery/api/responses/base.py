"""What every response model shares: unknown fields refused, optional fields left out when unset; and for
the shapes that show stored values, what a stored value they refuse is served as: a required field's
default (`stored_or`), an optional field left out, an unknown key dropped (`StoredModel`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Generic, TypeVar

from aws_lambda_powertools import Logger
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    ValidationError,
    ValidationInfo,
    WrapValidator,
    model_validator,
)
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


# What a stored value of a required field may get wrong and still be served (as the field's default): a
# value outside the enum, or of another scalar type. Anything else fails the field, and StoredModel then
# decides: an optional field or an unknown key is left out, a required field fails the response.
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
        _served_otherwise(info, info.field_name, value, default)
        return default

    return WrapValidator(validate)


def _served_otherwise(info: ValidationInfo, field: str | None, stored: Any, served: Any) -> None:
    context = info.context if isinstance(info.context, dict) else {}
    _log.warning("a stored value outside the response model is served as its default", extra={
        "item": context.get("item"), "page": context.get("page"), "field": field,
        "stored": repr(stored)[:200], "served": served})


class WireModel(BaseModel):
    """A response shape. A field the model does not name is a bug in Bindery, not something to drop
    silently on the way out: it fails the response (and the tests) instead."""

    # defer_build: a model's validator and serializer are built when it is first used, not when its module
    # loads. A function imports the models of all its routes; one invocation uses a few (the cold start,
    # bench/README.md "Cold start").
    model_config = ConfigDict(extra="forbid", json_schema_extra=_no_null_defaults, defer_build=True)


_OMITTED = "(left out)"


class WireRoot(RootModel[T], Generic[T]):
    """A response shape that is one of several (`WireRoot[A | B]`). pydantic's own RootModel does not
    defer: each `RootModel[…]` and its subclass would build the schema of every shape in the union when
    their module loads; this base defers like WireModel (a RootModel takes no `extra`: its shapes refuse
    unknown fields themselves)."""

    model_config = ConfigDict(defer_build=True)


class StoredModel(WireModel):
    """A response shape whose fields show a stored item's values (a page, its layout, a file): what the
    model refuses in one optional field (a wrong type or shape, a value beyond the spec) leaves that field
    out, and a key it does not name (`layout.mask`, written by an older Bindery or by hand) is dropped,
    each logged as stored_or logs, so that no stored value makes a read answer 500. A required field
    without `stored_or` still fails: content.tree.validate guarantees those before any write.

    `names_context`: a context key naming the item being validated while it validates (a page's id), so
    that the warnings of its fields and of its nested models say which it is."""

    names_context: ClassVar[str | None] = None

    @model_validator(mode="wrap")
    @classmethod
    def _served_from_store(cls, data: Any, handler: Callable[[Any], Any], info: ValidationInfo) -> Any:
        context, named = info.context, cls.names_context
        if named is None or not isinstance(context, dict) or not isinstance(data, dict):
            return cls._validated(data, handler, info)
        outer, context[named] = context.get(named), data.get("id")
        try:
            return cls._validated(data, handler, info)
        finally:
            context[named] = outer

    @classmethod
    def _validated(cls, data: Any, handler: Callable[[Any], Any], info: ValidationInfo) -> Any:
        try:
            return handler(data)
        except ValidationError as error:
            refused = cls._refused_fields(data, error)
            if refused is None:
                raise
        for name in sorted(refused):
            _served_otherwise(info, name, data[name], _OMITTED)
        return handler({name: value for name, value in data.items() if name not in refused})

    @classmethod
    def _refused_fields(cls, data: Any, error: ValidationError) -> set[str] | None:
        """The keys of `data` to leave out, or None when an error is not one of them (a missing or a
        required field's, which stays an error)."""
        if not isinstance(data, dict):
            return None
        refused: set[str] = set()
        for detail in error.errors():
            name = detail["loc"][0] if detail["loc"] else None
            field = cls.model_fields.get(name) if isinstance(name, str) else None
            unknown = detail["type"] == "extra_forbidden" and len(detail["loc"]) == 1
            if name not in data or not (unknown or (field is not None and not field.is_required())):
                return None
            refused.add(str(name))
        return refused


class NextPage(WireModel):
    page: str


class ListPage(WireModel):
    """The spec's `List`: a page of items (declared by each listing), the next page's cursor and the
    total count over all pages (always given, though the spec makes it optional: API.md's lists)."""

    next: Omitted[NextPage] = None
    count: int
