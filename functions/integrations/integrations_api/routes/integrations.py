"""/integrations and /integrations/{integrationName}: list and read. Publishing an integration, its
events and its setups on spaces and sites are in routes/publishing.py, routes/events.py and
routes/content_installs.py, which the function imports on their first request."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.dependencies import page_limit
from bindery.api.responses.integrations import Integration, IntegrationList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.integrations import integration_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.integrations import publishing
from integrations_api.listing_query import ListingQuery, with_listing_query

router = Router()


@router.get("/integrations")
@with_listing_query
def list_integrations(who: Who, *, page: PageCursor = None, limit: PageLimit = None,
                      query: ListingQuery) -> IntegrationList:
    """Public integrations, and the private and unlisted ones of `owner` for its members."""
    found = publishing.list_integrations(who, query.narrowing(), owner=query.owner, listed_for=None,
                                         limit=page_limit(limit), page=page)
    return list_page(IntegrationList, found, integration_to_wire)


@router.get("/integrations/<integrationName>")
def get_integration(integrationName: str, who: Who) -> Integration:
    return integration_to_wire(publishing.get(who, integrationName))
