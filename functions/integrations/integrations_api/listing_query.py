"""The query parameters of the integration listings (GET /integrations and ORG/integrations), declared
once: `ListingQuery`, given to each route as one `query` argument by `with_listing_query`
(bindery.api.route_signatures.with_query: each field stays a query parameter of its own, validated, named
and documented as if written out)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel

from bindery.api.route_signatures import with_query
from bindery.requests.integration_kinds import Category, Scope, Target
from bindery.store.integrations import IntegrationFilter

Search = Annotated[str | None, Query(max_length=100)]


class ListingQuery(BaseModel):
    """The spec's filters of an integration listing (spec names: they are the query parameters)."""

    search: Search = None
    category: Annotated[Category | None, Query()] = None
    blockDomain: Annotated[str | None, Query(max_length=100, pattern=r"^[a-zA-Z0-9\-_.]+$")] = None  # noqa: N815
    blocks: Annotated[bool | None, Query()] = None
    contentSources: Annotated[bool | None, Query()] = None  # noqa: N815 - the spec's name
    owner: Annotated[str | None, Query(max_length=100)] = None
    scope: Annotated[Scope | None, Query()] = None
    target: Annotated[Target | None, Query()] = None

    def narrowing(self) -> IntegrationFilter:
        """The filters the listing's Query applies (`owner` chooses what is queried, not a filter)."""
        return IntegrationFilter(search=self.search, category=self.category, block_domain=self.blockDomain,
                                 blocks=self.blocks, content_sources=self.contentSources, scope=self.scope,
                                 target=self.target)


with_listing_query = with_query(ListingQuery)
