"""ORG/sites/{siteId}/integrations: the integrations installed on a site (docs/integrations.md). It lives
in this function because API Gateway allows one variable path part per level: `/sites/{proxy+}` is
this function's, so `/sites/{siteId}/integrations` cannot be another's."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.responses.integrations import IntegrationList
from bindery.api.route_params import Who
from bindery.api.wire.integrations import integration_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.integrations import content_installs

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/integrations")
def list_site_integrations(organizationId: str, siteId: str, who: Who, *,
                           search: Annotated[str | None, Query(max_length=100)] = None) -> IntegrationList:
    """What is installed on the site, for whoever may read the site (guests: 403, as for the site)."""
    found = content_installs.integrations_on(who, "site", siteId, organizationId, search)
    return list_page(IntegrationList, found, integration_to_wire)
