"""Query parameters declared once, as a model, and given to Powertools as the route's own signature.

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
