"""ORG/saml: an organization's SAML providers (organization admins)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.saml import OrganizationSAMLProvider, OrganizationSAMLProviderList, SAMLLinkStart
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.saml import provider_to_wire
from bindery.api.wire.urls import api_base
from bindery.domain.sso import login
from bindery.domain.sso import providers as domain
from bindery.domain.sso.providers import ProviderResult
from bindery.requests.saml import CreateSAMLProvider, UpdateSAMLProvider

router = Router()


def _provider(result: ProviderResult) -> OrganizationSAMLProvider:
    return provider_to_wire(result.provider, result.team)


@router.get("/orgs/<organizationId>/saml")
def list_providers(organizationId: str, who: Who, *,
                   page: PageCursor = None, limit: PageLimit = None) -> OrganizationSAMLProviderList:
    found = domain.list_providers(who, organizationId, page_limit(limit), page)
    return list_page(OrganizationSAMLProviderList, found.listing, _provider)


@router.post("/orgs/<organizationId>/saml", status_code=201)
def create_provider(organizationId: str, who: Who,
                    body: Annotated[CreateSAMLProvider, Body()]) -> Response[OrganizationSAMLProvider]:
    created = _provider(domain.create_provider(who, organizationId, body))
    return Response(status_code=201, content_type=content_types.APPLICATION_JSON, body=created,
                    headers={"Location": created.urls.location})


@router.get("/orgs/<organizationId>/saml/<samlProviderId>")
def get_provider(organizationId: str, samlProviderId: str, who: Who) -> OrganizationSAMLProvider:
    return _provider(domain.get_provider(who, organizationId, samlProviderId))


@router.patch("/orgs/<organizationId>/saml/<samlProviderId>")
def update_provider(organizationId: str, samlProviderId: str, who: Who,
                    body: Annotated[UpdateSAMLProvider, Body()]) -> OrganizationSAMLProvider:
    return _provider(domain.update_provider(who, organizationId, samlProviderId, body))


@router.delete("/orgs/<organizationId>/saml/<samlProviderId>", status_code=204,
               responses={204: {"description": "There was no such provider"},
                          205: {"description": "The provider was deleted"}})
def delete_provider(organizationId: str, samlProviderId: str, who: Who) -> Response[str]:
    deleted = domain.delete_provider(who, organizationId, samlProviderId)
    # The spec: 205 when the provider was deleted, 204 when there was none.
    return Response(status_code=205 if deleted else 204, body="")


@router.post("/orgs/<organizationId>/saml/<samlProviderId>/link")
def link(organizationId: str, samlProviderId: str, who: Who) -> SAMLLinkStart:
    """Starts a login that links the IdP's identity to the caller's account (docs/sso.md, "Accounts")."""
    url = login.start_link(api_base(), who, organizationId, samlProviderId)
    return SAMLLinkStart(object="saml-link", url=url)
