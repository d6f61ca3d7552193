"""The endpoints a browser and an IdP reach without an API token: an organization's login choices
(`ORG/sso`), and each provider's start, ACS and metadata (`/saml/{samlProviderId}/…`, docs/sso.md)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.responses.saml import OrganizationSSOProviderLogins
from bindery.api.wire.saml import logins_to_wire
from bindery.api.wire.urls import api_base
from bindery.domain.sso import login, providers
from bindery.engines.saml.metadata import CONTENT_TYPE, sp_metadata

router = Router()


@router.get("/orgs/<organizationId>/sso")
def list_logins(organizationId: str) -> OrganizationSSOProviderLogins:
    found = providers.login_providers(organizationId)
    return logins_to_wire(found)


@router.get("/saml/<samlProviderId>/start", status_code=302,
            responses={302: {"description": "Redirect to the identity provider"}})
def start(samlProviderId: str) -> Response[str]:
    return Response(status_code=302, body="", headers={"Location": login.start(api_base(), samlProviderId),
                                                       "Cache-Control": "no-store"})


@router.post("/saml/<samlProviderId>/acs", status_code=303,
             responses={303: {"description": "Signed in: redirect to where the login started"}})
def acs(samlProviderId: str) -> Response[str]:
    form = router.current_event.decoded_body or ""
    target = login.consume(api_base(), samlProviderId, form)
    return Response(status_code=303, body="", headers={"Location": target, "Cache-Control": "no-store"})


@router.get("/saml/<samlProviderId>/metadata",
            responses={200: {"description": "The service provider's SAML metadata",
                             "content": {CONTENT_TYPE: {"schema": {"type": "string"}}}}})
def metadata(samlProviderId: str) -> Response[str]:
    return Response(status_code=200, content_type=CONTENT_TYPE,
                    body=sp_metadata(login.service(api_base(), samlProviderId)))
