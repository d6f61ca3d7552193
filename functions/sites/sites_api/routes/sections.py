"""SITE/sections: list a site's sections (adding, changing, moving and removing them:
routes/structure_edits.py)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.site_sections import SiteSectionList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.site_structure import section_to_wire
from bindery.domain.sites import sections as domain

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
