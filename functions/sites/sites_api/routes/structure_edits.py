"""SITE/site-spaces and SITE/sections: add, update, move and delete a site's site spaces and sections
(editing its structure, which the function imports on its first request: sites_api.app; the listings
are routes/site_spaces.py and routes/sections.py)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.site_sections import SiteSection
from bindery.api.responses.sites import SiteSpace
from bindery.api.route_params import Who
from bindery.api.wire.site_structure import section_to_wire, site_space_to_wire
from bindery.domain.sites import sections, site_spaces
from bindery.requests.site_sections import AddSection, MoveSection, MoveSiteSpace, UpdateSection
from bindery.requests.sites import AddSiteSpace, UpdateSiteSpace

router = Router()


@router.post("/orgs/<organizationId>/sites/<siteId>/site-spaces", status_code=201)
def add_site_space(organizationId: str, siteId: str, who: Who,
                   body: Annotated[AddSiteSpace, Body()]) -> SiteSpace:
    return site_space_to_wire(site_spaces.add_site_space(who, organizationId, siteId, body))


@router.patch("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>")
def update_site_space(organizationId: str, siteId: str, siteSpaceId: str, who: Who,
                      body: Annotated[UpdateSiteSpace, Body()]) -> SiteSpace:
    view = site_spaces.update_site_space(who, organizationId, siteId, siteSpaceId, body)
    return site_space_to_wire(view)


@router.post("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>/move")
def move_site_space(organizationId: str, siteId: str, siteSpaceId: str, who: Who,
                    body: Annotated[MoveSiteSpace | None, Body()] = None) -> SiteSpace:
    view = site_spaces.move_site_space(who, organizationId, siteId, siteSpaceId, body or MoveSiteSpace())
    return site_space_to_wire(view)


@router.delete("/orgs/<organizationId>/sites/<siteId>/site-spaces/<siteSpaceId>", status_code=204)
def delete_site_space(organizationId: str, siteId: str, siteSpaceId: str, who: Who) -> Response[str]:
    site_spaces.delete_site_space(who, organizationId, siteId, siteSpaceId)
    return Response(status_code=204, body="")


@router.post("/orgs/<organizationId>/sites/<siteId>/sections", status_code=201)
def add_section(organizationId: str, siteId: str, who: Who,
                body: Annotated[AddSection, Body()]) -> SiteSection:
    return section_to_wire(sections.add_section(who, organizationId, siteId, body))


@router.patch("/orgs/<organizationId>/sites/<siteId>/sections/<siteSectionId>")
def update_section(organizationId: str, siteId: str, siteSectionId: str, who: Who,
                   body: Annotated[UpdateSection, Body()]) -> SiteSection:
    view = sections.update_section(who, organizationId, siteId, siteSectionId, body)
    return section_to_wire(view)


@router.post("/orgs/<organizationId>/sites/<siteId>/sections/<siteSectionId>/move")
def move_section(organizationId: str, siteId: str, siteSectionId: str, who: Who,
                 body: Annotated[MoveSection | None, Body()] = None) -> SiteSection:
    view = sections.move_section(who, organizationId, siteId, siteSectionId, body or MoveSection())
    return section_to_wire(view)


@router.delete("/orgs/<organizationId>/sites/<siteId>/sections/<siteSectionId>", status_code=204)
def delete_section(organizationId: str, siteId: str, siteSectionId: str, who: Who) -> Response[str]:
    sections.delete_section(who, organizationId, siteId, siteSectionId)
    return Response(status_code=204, body="")
