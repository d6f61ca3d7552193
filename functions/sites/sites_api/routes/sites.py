"""ORG/sites and SITE: list, create, read, update, delete, publish and unpublish."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.sites import Site, SiteList
from bindery.api.route_params import IdFilter, PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.sites import site_to_wire
from bindery.domain.sites import lifecycle, listing
from bindery.domain.sites.lifecycle import SiteResult
from bindery.requests.sites import CreateSite, SiteType, UpdateSite

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


@router.post("/orgs/<organizationId>/sites", status_code=201)
def create_site(organizationId: str, who: Who,
                body: Annotated[CreateSite | None, Body()] = None) -> Site:
    return _site(lifecycle.create_site(who, organizationId, body or CreateSite()))


@router.get("/orgs/<organizationId>/sites/<siteId>")
def get_site(organizationId: str, siteId: str, who: Who) -> Site:
    return _site(lifecycle.get_site(who, organizationId, siteId))


@router.patch("/orgs/<organizationId>/sites/<siteId>")
def update_site(organizationId: str, siteId: str, who: Who,
                body: Annotated[UpdateSite, Body()]) -> Site:
    return _site(lifecycle.update_site(who, organizationId, siteId, body))


@router.delete("/orgs/<organizationId>/sites/<siteId>", status_code=204)
def delete_site(organizationId: str, siteId: str, who: Who) -> Response[str]:
    lifecycle.delete_site(who, organizationId, siteId)
    return Response(status_code=204, body="")


@router.post("/orgs/<organizationId>/sites/<siteId>/publish")
def publish_site(organizationId: str, siteId: str, who: Who) -> Site:
    return _site(lifecycle.set_published(who, organizationId, siteId, True))


@router.post("/orgs/<organizationId>/sites/<siteId>/unpublish")
def unpublish_site(organizationId: str, siteId: str, who: Who) -> Site:
    return _site(lifecycle.set_published(who, organizationId, siteId, False))
