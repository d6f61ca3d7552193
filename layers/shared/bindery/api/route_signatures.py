"""What Powertools reads from a route function's signature: query parameters declared once, as a model,
and given to Powertools as the route's own signature; annotations evaluated once (`settle_annotations`).

Powertools reads a route function's signature to validate, name and document what it takes: each
parameter's `Annotated[..., Query()/Body()]` type, the path variables by parameter name, the response
model from the return annotation and the operationId from `__name__`. Both helpers here hand it a
signature that says exactly what writing the route out would have said, so the OpenAPI document and the
400 messages are those of the written-out route. The route's path and name are always written out
(grep finds every path); only its query parameters are declared here.

- `with_query(Model)`: a set of query parameters declared once, as a pydantic model whose fields carry
  their `Annotated[..., Query(...)]` types, and given to the route as one `query` argument. (Powertools
  3.37 accepts `Annotated[Model, Query()]`, but documents each field as a bare `{"type": "string"}`, no
  enum, default or bounds, and names a field in a validation error after the model parameter,
  `query.status`, so both the document and the messages would change.)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from functools import cache
from types import FunctionType, UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin, get_type_hints

from aws_lambda_powertools.event_handler.depends import Depends
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


@cache
def settle_annotations(func: Callable[..., Any]) -> None:
    """Replace `func`'s annotations, and those of the `Depends` providers it names (recursively), by the
    objects they evaluate to, once per function. Powertools 3.37 rebuilds a route's dependency tree on
    every request (`build_dependency_tree(route.func)`, then `get_type_hints` of each provider), and with
    `from __future__ import annotations` every `get_type_hints` compiles and evaluates each annotation's
    string again: 0.1 to 0.3 ms per request. Evaluated once, the same calls read the same objects (what
    `get_type_hints` would have returned) at a few microseconds; Powertools' signature reading
    (`inspect.signature`, the OpenAPI document) is unchanged, since it evaluates the strings to these
    very objects. Called on first use of a route (bindery.api.http), not at import: evaluating every
    route's annotations up front would cost each cold start milliseconds."""
    try:
        hints = get_type_hints(func, include_extras=True)
    except Exception:  # noqa: BLE001 - unresolvable: Powertools treats such hints as absent, so do we
        return
    if isinstance(func, FunctionType):
        func.__annotations__ = hints
    for annotation in hints.values():
        for provider in _providers(annotation):
            settle_annotations(provider)


def _providers(annotation: Any) -> list[Callable[..., Any]]:
    """The `Depends` providers an annotation names (in `Annotated[T, Depends(f)]`, or that or None)."""
    parts = get_args(annotation) if get_origin(annotation) in (Union, UnionType) else (annotation,)
    return [arg.dependency for part in parts if get_origin(part) is Annotated
            for arg in get_args(part)[1:] if isinstance(arg, Depends)]
