"""The query parameters of the change-request listings (SPACE/change-requests and ORG/change-requests),
declared once: `ListingQuery`.

Powertools 3.37 accepts a model as `Annotated[ListingQuery, Query()]`, but documents each of its fields
as a bare `{"type": "string"}` (no enum, no default, no minLength) and names a field in a validation error
after the model parameter (`filters.status`), so both the OpenAPI document and the 400 messages would
change. `with_listing_query` instead gives the route the model's fields as its own keyword parameters
(their `Annotated[..., Query(...)]` types exactly as declared here), so Powertools validates, names and
documents each as it always has, then hands the route one `query: ListingQuery`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, get_type_hints

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel

from bindery.api.schemas.change_requests import Status
from bindery.domain.change_requests.listing import Filters

Result = TypeVar("Result")


class ListingQuery(BaseModel):
    """The spec's filters of a change-request listing (spec names: they are the query parameters)."""

    status: Annotated[Status, Query()] = "open"
    creator: Annotated[str | None, Query(min_length=1)] = None
    contributor: Annotated[str | None, Query(min_length=1)] = None
    requestedReviewer: Annotated[str | None, Query(min_length=1)] = None  # noqa: N815 - the spec's name
    conversationsIssuesCluster: Annotated[str | None, Query(min_length=1)] = None  # noqa: N815

    def filters(self) -> Filters:
        return Filters(self.status, self.creator, self.contributor, self.requestedReviewer,
                       self.conversationsIssuesCluster)


def with_listing_query(route: Callable[..., Result]) -> Callable[..., Result]:
    """`route` takes `query: ListingQuery`; the function returned takes the query's fields instead."""
    hints = get_type_hints(route, include_extras=True)
    fields = get_type_hints(ListingQuery, include_extras=True)
    own = [parameter.replace(annotation=hints[parameter.name])
           for parameter in inspect.signature(route).parameters.values() if parameter.name != "query"]
    declared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=fields[name],
                                  default=field.default)
                for name, field in ListingQuery.model_fields.items()]

    @functools.wraps(route)
    def listed(*args: Any, **kwargs: Any) -> Result:
        query = ListingQuery(**{name: kwargs.pop(name) for name in ListingQuery.model_fields})
        return route(*args, query=query, **kwargs)

    listed.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        own + declared, return_annotation=hints.get("return", inspect.Signature.empty))
    return listed
