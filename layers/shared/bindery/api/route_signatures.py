"""Route functions written once and declared to Powertools with another signature.

Powertools reads a route function's signature to validate, name and document what it takes: each
parameter's `Annotated[..., Query()/Body()]` type, the path variables by parameter name, the response
model from the return annotation and the operationId from `__name__`. Both helpers here hand it a
signature that says exactly what writing the route out would have said, so the OpenAPI document and the
400 messages are those of the written-out route:

- `with_query(Model)`: a set of query parameters declared once, as a pydantic model whose fields carry
  their `Annotated[..., Query(...)]` types, and given to the route as one `query` argument. (Powertools
  3.37 accepts `Annotated[Model, Query()]`, but documents each field as a bare `{"type": "string"}`, no
  enum, default or bounds, and names a field in a validation error after the model parameter,
  `query.status`, so both the document and the messages would change.)
- `declared_as(route, ...)`: one route function serving several kinds of target (a space and a site)
  under each kind's own names: its operation name, path variable, body and response model.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_type_hints

from pydantic import BaseModel

Result = TypeVar("Result")


def with_query(model: type[BaseModel]) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """A decorator: the route takes `query: model`; the function returned takes the model's fields (as
    keyword-only parameters, after the route's own) instead."""
    fields = get_type_hints(model, include_extras=True)
    declared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=fields[name],
                                  default=field.default)
                for name, field in model.model_fields.items()]

    def decorate(route: Callable[..., Result]) -> Callable[..., Result]:
        hints = get_type_hints(route, include_extras=True)
        own = [parameter.replace(annotation=hints[parameter.name])
               for parameter in inspect.signature(route).parameters.values() if parameter.name != "query"]

        @functools.wraps(route)
        def queried(*args: Any, **kwargs: Any) -> Result:
            query = model(**{name: kwargs.pop(name) for name in model.model_fields})
            return route(*args, query=query, **kwargs)

        queried.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            own + declared, return_annotation=hints.get("return", inspect.Signature.empty))
        return queried

    return decorate


def declared_as(route: Callable[..., Result], *, name: str, renamed: Mapping[str, str] | None = None,
                types: Mapping[str, Any] | None = None) -> Callable[..., Result]:
    """`route` declared as `name`, its parameters renamed (`{"content_id": "spaceId"}`: the path variable
    the route is mounted with) and their types, or the return type (`"return"`), replaced (by their names
    in `route`). The route still receives its arguments under its own names."""
    renamed = renamed or {}
    hints = {**get_type_hints(route, include_extras=True), **(types or {})}
    parameters = [parameter.replace(name=renamed.get(parameter.name, parameter.name),
                                    annotation=hints[parameter.name])
                  for parameter in inspect.signature(route).parameters.values()]
    own_name = {declared: own for own, declared in renamed.items()}

    def declared(*args: Any, **kwargs: Any) -> Result:
        return route(*args, **{own_name.get(key, key): value for key, value in kwargs.items()})

    declared.__name__ = declared.__qualname__ = name
    declared.__module__ = route.__module__
    declared.__doc__ = route.__doc__
    declared.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        parameters, return_annotation=hints.get("return", inspect.Signature.empty))
    # Powertools finds the `Depends()` parameters (the caller) in the annotations, not the signature.
    declared.__annotations__ = {renamed.get(name, name): hint for name, hint in hints.items()}
    return declared
