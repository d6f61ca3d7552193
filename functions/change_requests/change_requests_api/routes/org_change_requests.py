"""ORG/change-requests: the organization's change requests, in the spaces the caller may read."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.dependencies import page_limit
from bindery.api.responses.change_requests import ChangeRequestList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.change_requests import change_request_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.change_requests import listing
from change_requests_api.listing_query import ListingQuery, with_listing_query

router = Router()


@router.get("/orgs/<organizationId>/change-requests")
@with_listing_query
def list_change_requests(
    organizationId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    query: ListingQuery,
) -> ChangeRequestList:
    # Membership is checked with the page's spaces (one BatchGetItem): a non-member gets 404.
    found = listing.list_for_organization(who, organizationId, query.filters(), limit=page_limit(limit),
                                          page=page)
    return list_page(ChangeRequestList, found, change_request_to_wire)
