"""What an organization, a space and a site have of integrations: ORG/integrations (the marketplace as
the organization sees it), ORG/installations, SPACE/integrations."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.dependencies import page_limit
from bindery.api.responses.integrations import InstalledIntegrationList, IntegrationList
from bindery.api.route_params import MemberOf, PageCursor, PageLimit, Who
from bindery.api.wire.integrations import installed_to_wire, integration_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.integrations import content_installs, installations, publishing
from integrations_api.listing_query import ListingQuery, Search, with_listing_query

router = Router()


@router.get("/orgs/<organizationId>/integrations")
@with_listing_query
def list_org_integrations(organizationId: str, access: MemberOf, who: Who, *,
                          page: PageCursor = None, limit: PageLimit = None,
                          query: ListingQuery) -> IntegrationList:
    """Public integrations with the organization's own private and unlisted ones (its members)."""
    found = publishing.list_integrations(who, query.narrowing(), owner=query.owner, listed_for=access.org.id,
                                         limit=page_limit(limit), page=page)
    return list_page(IntegrationList, found, integration_to_wire)


@router.get("/orgs/<organizationId>/installations")
def list_org_installations(organizationId: str, access: MemberOf, who: Who, *,
                           page: PageCursor = None, limit: PageLimit = None,
                           search: Search = None) -> InstalledIntegrationList:
    found = installations.org_installations(access, who, search, limit=page_limit(limit), page=page)
    return list_page(InstalledIntegrationList, found, installed_to_wire)


@router.get("/spaces/<spaceId>/integrations")
def list_space_integrations(spaceId: str, who: Who, *, search: Search = None) -> IntegrationList:
    found = content_installs.integrations_on(who, "space", spaceId, None, search)
    return list_page(IntegrationList, found, integration_to_wire)
