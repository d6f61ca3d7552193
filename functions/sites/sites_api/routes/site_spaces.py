"""SITE/site-spaces: list the spaces a site shows (adding, changing, moving and removing them:
routes/structure_edits.py; their customization: routes/site_space_customization.py)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.sites import SiteSpaceList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.site_structure import site_space_to_wire
from bindery.domain.sites import site_spaces as domain

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
