"""SITE/site-spaces/{siteSpaceId}/customization: a site space's overrides of its site's customization
(configuration, which the function imports on its first request: sites_api.app)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.site_settings import SiteCustomizationSettings
from bindery.api.route_params import Who
from bindery.api.wire.site_settings import customization_to_wire
from bindery.domain.sites import customization
from bindery.requests.common import UnicodeJson

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>/customization")
def get_customization(organizationId: str, siteId: str, siteSpaceId: str,
                      who: Who) -> SiteCustomizationSettings:
    return customization_to_wire(
        customization.get_site_space_customization(who, organizationId, siteId, siteSpaceId))


@router.patch("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>/customization")
def override_customization(organizationId: str, siteId: str, siteSpaceId: str, who: Who,
                           body: Annotated[UnicodeJson, Body()]) -> SiteCustomizationSettings:
    return customization_to_wire(
        customization.override_site_space_customization(who, organizationId, siteId, siteSpaceId, body))


@router.delete("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>/customization",
               status_code=204)
def delete_customization(organizationId: str, siteId: str, siteSpaceId: str,
                         who: Who) -> Response[str]:
    customization.delete_site_space_customization(who, organizationId, siteId, siteSpaceId)
    return Response(status_code=204, body="")
