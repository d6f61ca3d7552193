"""The query parameters of the change-request listings (SPACE/change-requests and ORG/change-requests),
declared once: `ListingQuery`, given to each route as one `query` argument by `with_listing_query`
(bindery.api.route_signatures.with_query: each field stays a query parameter of its own, validated, named
and documented as if written out)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import BaseModel

from bindery.api.route_params import IdFilter
from bindery.api.route_signatures import with_query
from bindery.domain.change_requests.listing import Filters
from bindery.requests.change_requests import Status


class ListingQuery(BaseModel):
    """The spec's filters of a change-request listing (spec names: they are the query parameters)."""

    status: Annotated[Status, Query()] = "open"
    creator: IdFilter = None
    contributor: IdFilter = None
    requestedReviewer: IdFilter = None  # noqa: N815 - the spec's name
    conversationsIssuesCluster: IdFilter = None  # noqa: N815

    def filters(self) -> Filters:
        return Filters(self.status, self.creator, self.contributor, self.requestedReviewer,
                       self.conversationsIssuesCluster)


with_listing_query = with_query(ListingQuery)
