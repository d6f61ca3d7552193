"""SITE/section-groups: list, add, update and delete groups of sections, and their membership."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.site_sections import SiteSectionGroup, SiteSectionGroupList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.site_structure import section_group_to_wire
from bindery.domain.sites import section_groups as domain
from bindery.requests.site_sections import AddSectionGroup, AddSectionToGroup, UpdateSectionGroup

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/section-groups")
def list_groups(
    organizationId: str,
    siteId: str,
    who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> SiteSectionGroupList:
    found = domain.list_groups(who, organizationId, siteId, limit=page_limit(limit), page=page)
    return list_page(SiteSectionGroupList, found, section_group_to_wire)


@router.post("/orgs/<organizationId>/sites/<siteId>/section-groups", status_code=201)
def add_group(organizationId: str, siteId: str, who: Who,
              body: Annotated[AddSectionGroup, Body()]) -> SiteSectionGroup:
    return section_group_to_wire(domain.add_group(who, organizationId, siteId, body))


@router.patch("/orgs/<organizationId>/sites/<siteId>/section-groups/<siteSectionGroupId>")
def update_group(organizationId: str, siteId: str, siteSectionGroupId: str, who: Who,
                 body: Annotated[UpdateSectionGroup, Body()]) -> SiteSectionGroup:
    view = domain.update_group(who, organizationId, siteId, siteSectionGroupId, body)
    return section_group_to_wire(view)


@router.delete("/orgs/<organizationId>/sites/<siteId>/section-groups/<siteSectionGroupId>", status_code=204)
def delete_group(organizationId: str, siteId: str, siteSectionGroupId: str,
                 who: Who) -> Response[str]:
    domain.delete_group(who, organizationId, siteId, siteSectionGroupId)
    return Response(status_code=204, body="")


@router.post("/orgs/<organizationId>/sites/<siteId>/section-groups/<siteSectionGroupId>/sections",
             status_code=201)
def add_section_to_group(organizationId: str, siteId: str, siteSectionGroupId: str,
                         who: Who, body: Annotated[AddSectionToGroup, Body()]) -> SiteSectionGroup:
    view = domain.add_section_to_group(who, organizationId, siteId, siteSectionGroupId, body)
    return section_group_to_wire(view)


@router.delete("/orgs/<organizationId>/sites/<siteId>/section-groups/<siteSectionGroupId>/sections/<siteSectionId>",
               status_code=204)
def remove_section_from_group(organizationId: str, siteId: str, siteSectionGroupId: str,
                              siteSectionId: str, who: Who) -> Response[str]:
    domain.remove_section_from_group(who, organizationId, siteId, siteSectionGroupId, siteSectionId)
    return Response(status_code=204, body="")
