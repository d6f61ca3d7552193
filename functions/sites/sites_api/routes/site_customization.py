"""SITE/customization and SITE/adaptive-schema: what a site looks like and who its visitors are
(configuration, which the function imports on its first request: sites_api.app)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.site_settings import (
    SiteAdaptiveSchema,
    SiteAdaptiveTemplateConditions,
    SiteCustomizationSettings,
)
from bindery.api.route_params import Who
from bindery.api.wire.site_settings import (
    adaptive_schema_to_wire,
    customization_to_wire,
    template_conditions_to_wire,
)
from bindery.domain.sites import adaptive, customization
from bindery.requests.common import UnicodeJson
from bindery.requests.sites import UpdateAdaptiveSchema

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/customization")
def get_customization(organizationId: str, siteId: str, who: Who) -> SiteCustomizationSettings:
    return customization_to_wire(
        customization.get_site_customization(who, organizationId, siteId))


@router.put("/orgs/<organizationId>/sites/<siteId>/customization")
def put_customization(organizationId: str, siteId: str, who: Who,
                      body: Annotated[UnicodeJson, Body()]) -> SiteCustomizationSettings:
    return customization_to_wire(
        customization.put_site_customization(who, organizationId, siteId, body))


@router.get("/orgs/<organizationId>/sites/<siteId>/adaptive-schema")
def get_adaptive_schema(organizationId: str, siteId: str, who: Who) -> SiteAdaptiveSchema:
    return adaptive_schema_to_wire(adaptive.get_schema(who, organizationId, siteId))


@router.put("/orgs/<organizationId>/sites/<siteId>/adaptive-schema")
def put_adaptive_schema(organizationId: str, siteId: str, who: Who,
                        body: Annotated[UpdateAdaptiveSchema, Body()]) -> SiteAdaptiveSchema:
    return adaptive_schema_to_wire(adaptive.put_schema(who, organizationId, siteId, body.jsonSchema))


@router.get("/orgs/<organizationId>/sites/<siteId>/adaptive-schema/template-conditions")
def list_template_conditions(organizationId: str, siteId: str,
                             who: Who) -> SiteAdaptiveTemplateConditions:
    found = adaptive.template_conditions(who, organizationId, siteId)
    return template_conditions_to_wire(found)
