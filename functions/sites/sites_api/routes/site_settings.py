"""SITE/published, SITE/customization and SITE/adaptive-schema: what a site looks like and who its
visitors are."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.responses.site_settings import (
    PublishedContentSite,
    SiteAdaptiveSchema,
    SiteAdaptiveTemplateConditions,
    SiteCustomizationSettings,
)
from bindery.api.route_params import Who
from bindery.api.wire.site_settings import (
    adaptive_schema_to_wire,
    customization_to_wire,
    published_site_to_wire,
    template_conditions_to_wire,
)
from bindery.api.wire.site_structure import site_space_to_wire, structure_entry_to_wire
from bindery.domain.sites import adaptive, customization, published
from bindery.requests.common import UnicodeJson
from bindery.requests.sites import UpdateAdaptiveSchema

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/published")
def get_published(organizationId: str, siteId: str, who: Who,
                  shareKey: Annotated[str | None, Query(max_length=256)] = None,
                  ) -> PublishedContentSite:
    found = published.get_published(who, organizationId, siteId, shareKey)
    views = found.views
    structure = ([structure_entry_to_wire(entry) for entry in views.top] if found.has_sections
                 else [site_space_to_wire(view) for view in views.root_site_spaces()])
    scripts = [{"script": s.script, "cookies": s.cookies,
                **({"contentSecurityPolicy": s.content_security_policy} if s.content_security_policy else {})}
               for s in found.scripts]
    return published_site_to_wire(
        found.site, found.org, sections=found.has_sections, structure=structure, settings=found.settings,
        site_space_settings=found.site_space_settings, scripts=scripts)


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
