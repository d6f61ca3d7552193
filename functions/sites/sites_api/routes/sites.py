"""ORG/sites and SITE: list and read (creating, changing, deleting and publishing a site:
routes/site_lifecycle.py)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.sites import Site, SiteList
from bindery.api.route_params import IdFilter, PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.sites import site_to_wire
from bindery.domain.sites import lifecycle, listing
from bindery.domain.sites.lifecycle import SiteResult
from bindery.requests.site_kinds import SiteType

router = Router()


def _site(result: SiteResult) -> Site:
    return site_to_wire(result.site, result.org)


@router.get("/orgs/<organizationId>/sites")
def list_sites(
    organizationId: str,
    who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    space: IdFilter = None,
    title: Annotated[str | None, Query(max_length=128)] = None,
    published: Annotated[bool | None, Query()] = None,
    type: Annotated[list[SiteType] | None, Query()] = None,  # noqa: A002 - the spec's name
) -> SiteList:
    found = listing.list_sites(who, organizationId, space=space, title=title, published=published,
                               types=list(type) if type else None, limit=page_limit(limit), page=page)
    return list_page(SiteList, found.listing, lambda site: site_to_wire(site, found.org))


@router.get("/orgs/<organizationId>/sites/<siteId>")
def get_site(organizationId: str, siteId: str, who: Who) -> Site:
    return _site(lifecycle.get_site(who, organizationId, siteId))
