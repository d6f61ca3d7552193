"""ORG/sites and SITE: create, update, delete, publish and unpublish a site (which the function imports
on its first request: sites_api.app; listing and reading sites: routes/sites.py)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.sites import Site
from bindery.api.route_params import Who
from bindery.api.wire.sites import site_to_wire
from bindery.domain.sites import lifecycle
from bindery.domain.sites.lifecycle import SiteResult
from bindery.requests.sites import CreateSite, UpdateSite

router = Router()


def _site(result: SiteResult) -> Site:
    return site_to_wire(result.site, result.org)


@router.post("/orgs/<organizationId>/sites", status_code=201)
def create_site(organizationId: str, who: Who,
                body: Annotated[CreateSite | None, Body()] = None) -> Site:
    return _site(lifecycle.create_site(who, organizationId, body or CreateSite()))


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
