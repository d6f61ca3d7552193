"""SITE/sections: list, add, update, move and delete a site's sections."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.site_sections import SiteSection, SiteSectionList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.site_structure import section_to_wire
from bindery.domain.sites import sections as domain
from bindery.requests.site_sections import AddSection, MoveSection, UpdateSection

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/sections")
def list_sections(
    organizationId: str,
    siteId: str,
    who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    shareKey: Annotated[str | None, Query(max_length=256)] = None,
) -> SiteSectionList:
    found = domain.list_sections(who, organizationId, siteId, limit=page_limit(limit), page=page,
                                 share_key=shareKey)
    return list_page(SiteSectionList, found, section_to_wire)


@router.post("/orgs/<organizationId>/sites/<siteId>/sections", status_code=201)
def add_section(organizationId: str, siteId: str, who: Who,
                body: Annotated[AddSection, Body()]) -> SiteSection:
    return section_to_wire(domain.add_section(who, organizationId, siteId, body))


@router.patch("/orgs/<organizationId>/sites/<siteId>/sections/<siteSectionId>")
def update_section(organizationId: str, siteId: str, siteSectionId: str, who: Who,
                   body: Annotated[UpdateSection, Body()]) -> SiteSection:
    view = domain.update_section(who, organizationId, siteId, siteSectionId, body)
    return section_to_wire(view)


@router.post("/orgs/<organizationId>/sites/<siteId>/sections/<siteSectionId>/move")
def move_section(organizationId: str, siteId: str, siteSectionId: str, who: Who,
                 body: Annotated[MoveSection | None, Body()] = None) -> SiteSection:
    view = domain.move_section(who, organizationId, siteId, siteSectionId, body or MoveSection())
    return section_to_wire(view)


@router.delete("/orgs/<organizationId>/sites/<siteId>/sections/<siteSectionId>", status_code=204)
def delete_section(organizationId: str, siteId: str, siteSectionId: str, who: Who) -> Response[str]:
    domain.delete_section(who, organizationId, siteId, siteSectionId)
    return Response(status_code=204, body="")
