"""SITE/publishing/auth: the key that signs a `visitor-auth` site's visitor tokens (the spec's
site-publishing-auth operations; docs/published-sites.md)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.site_settings import SitePublishingAuth
from bindery.api.route_params import Who
from bindery.api.wire.site_settings import publishing_auth_to_wire
from bindery.domain.sites import publishing_auth as domain
from bindery.requests.sites import UpdatePublishingAuth

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/publishing/auth")
def get_publishing_auth(organizationId: str, siteId: str, who: Who) -> SitePublishingAuth:
    found = domain.get_publishing_auth(who, organizationId, siteId)
    return publishing_auth_to_wire(found)


@router.patch("/orgs/<organizationId>/sites/<siteId>/publishing/auth")
def update_publishing_auth(organizationId: str, siteId: str, who: Who,
                           body: Annotated[UpdatePublishingAuth, Body()]) -> SitePublishingAuth:
    found = domain.update_publishing_auth(who, organizationId, siteId, body)
    return publishing_auth_to_wire(found)


@router.post("/orgs/<organizationId>/sites/<siteId>/publishing/auth/regenerate")
def regenerate_publishing_auth(organizationId: str, siteId: str, who: Who) -> SitePublishingAuth:
    found = domain.regenerate_publishing_auth(who, organizationId, siteId)
    return publishing_auth_to_wire(found)
