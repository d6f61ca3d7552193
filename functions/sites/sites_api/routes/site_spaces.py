"""SITE/site-spaces: list, add, update and delete the spaces a site shows."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.site_settings import SiteCustomizationSettings
from bindery.api.responses.sites import SiteSpace, SiteSpaceList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.site_settings import customization_to_wire
from bindery.api.wire.site_structure import site_space_to_wire
from bindery.domain.sites import customization
from bindery.domain.sites import site_spaces as domain
from bindery.requests.common import UnicodeJson
from bindery.requests.site_sections import MoveSiteSpace
from bindery.requests.sites import AddSiteSpace, UpdateSiteSpace

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/site-spaces")
def list_site_spaces(
    organizationId: str,
    siteId: str,
    who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    default: Annotated[bool | None, Query()] = None,
    shareKey: Annotated[str | None, Query(max_length=256)] = None,
) -> SiteSpaceList:
    found = domain.list_site_spaces(who, organizationId, siteId, default=default, limit=page_limit(limit),
                                    page=page, share_key=shareKey)
    return list_page(SiteSpaceList, found, site_space_to_wire)


@router.post("/orgs/<organizationId>/sites/<siteId>/site-spaces", status_code=201)
def add_site_space(organizationId: str, siteId: str, who: Who,
                   body: Annotated[AddSiteSpace, Body()]) -> SiteSpace:
    return site_space_to_wire(domain.add_site_space(who, organizationId, siteId, body))


@router.patch("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>")
def update_site_space(organizationId: str, siteId: str, siteSpaceId: str, who: Who,
                      body: Annotated[UpdateSiteSpace, Body()]) -> SiteSpace:
    view = domain.update_site_space(who, organizationId, siteId, siteSpaceId, body)
    return site_space_to_wire(view)


@router.post("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>/move")
def move_site_space(organizationId: str, siteId: str, siteSpaceId: str, who: Who,
                    body: Annotated[MoveSiteSpace | None, Body()] = None) -> SiteSpace:
    view = domain.move_site_space(who, organizationId, siteId, siteSpaceId, body or MoveSiteSpace())
    return site_space_to_wire(view)


@router.delete("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>", status_code=204)
def delete_site_space(organizationId: str, siteId: str, siteSpaceId: str, who: Who) -> Response[str]:
    domain.delete_site_space(who, organizationId, siteId, siteSpaceId)
    return Response(status_code=204, body="")


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
