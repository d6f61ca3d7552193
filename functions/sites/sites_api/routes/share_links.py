"""SITE/share-links: the keys that open a `share-link` site to people outside the organization."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.site_settings import ShareLink, ShareLinkList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.site_settings import share_link_to_wire
from bindery.domain.sites import share_links as domain
from bindery.domain.sites.share_links import ShareLinkView
from bindery.requests.sites import CreateShareLink, UpdateShareLink

router = Router()


def _wire(view: ShareLinkView) -> ShareLink:
    link = view.link
    return share_link_to_wire(link_id=link.id, name=link.name, key=link.key, active=link.active,
                              created_at=link.created_at, site=view.site, org=view.org)


@router.get("/orgs/<organizationId>/sites/<siteId>/share-links")
def list_share_links(organizationId: str, siteId: str, who: Who, *,
                     page: PageCursor = None, limit: PageLimit = None) -> ShareLinkList:
    found = domain.list_share_links(who, organizationId, siteId, limit=page_limit(limit), page=page)
    return list_page(ShareLinkList, found, _wire)


@router.post("/orgs/<organizationId>/sites/<siteId>/share-links", status_code=201)
def create_share_link(organizationId: str, siteId: str, who: Who,
                      body: Annotated[CreateShareLink, Body()]) -> ShareLink:
    return _wire(domain.create_share_link(who, organizationId, siteId, body))


@router.patch("/orgs/<organizationId>/sites/<siteId>/share-links/<shareLinkId>")
def update_share_link(organizationId: str, siteId: str, shareLinkId: str, who: Who,
                      body: Annotated[UpdateShareLink, Body()]) -> ShareLink:
    return _wire(domain.update_share_link(who, organizationId, siteId, shareLinkId, body))


@router.delete("/orgs/<organizationId>/sites/<siteId>/share-links/<shareLinkId>", status_code=204)
def delete_share_link(organizationId: str, siteId: str, shareLinkId: str, who: Who) -> Response[str]:
    domain.delete_share_link(who, organizationId, siteId, shareLinkId)
    return Response(status_code=204, body="")
