"""/integrations/{integrationName}/installations[/{installationId}]: install on an organization, list,
read, configure, uninstall."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.integrations import (
    IntegrationInstallation,
    IntegrationInstallationList,
    IntegrationInstallationToken,
)
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.integrations import installation_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.integrations import installations, tokens
from bindery.requests.integrations import InstallIntegration, UpdateInstallation

router = Router()


@router.get("/integrations/<integrationName>/installations")
def list_installations(integrationName: str, who: Who, *,
                       page: PageCursor = None, limit: PageLimit = None,
                       externalId: Annotated[str | None, Query(max_length=200)] = None,
                       ) -> IntegrationInstallationList:
    found = installations.list_installations(who, integrationName, externalId, limit=page_limit(limit),
                                             page=page)
    return list_page(IntegrationInstallationList, found, installation_to_wire)


@router.post("/integrations/<integrationName>/installations",
             status_code=201, responses={201: {"description": "Integration installed successfully"}})
def install_integration(integrationName: str, who: Who,
                        body: Annotated[InstallIntegration, Body()]) -> Response[IntegrationInstallation]:
    shaped = installation_to_wire(installations.install(who, integrationName, body.organization))
    return Response(status_code=201, content_type="application/json", body=shaped,
                    headers={"Location": shaped.urls.location})


@router.get("/integrations/<integrationName>/installations/<installationId>")
def get_installation(integrationName: str, installationId: str, who: Who) -> IntegrationInstallation:
    return installation_to_wire(installations.get_installation(who, integrationName, installationId))


@router.patch("/integrations/<integrationName>/installations/<installationId>")
def update_installation(integrationName: str, installationId: str, who: Who,
                        body: Annotated[UpdateInstallation, Body()]) -> IntegrationInstallation:
    return installation_to_wire(installations.update_installation(who, integrationName, installationId, body))


@router.delete("/integrations/<integrationName>/installations/<installationId>", status_code=204)
def uninstall_integration(integrationName: str, installationId: str, who: Who) -> Response[str]:
    installations.uninstall(who, integrationName, installationId)
    return Response(status_code=204, body="")


@router.post("/integrations/<integrationName>/installations/<installationId>/tokens")
def create_installation_token(integrationName: str, installationId: str,
                              who: Who) -> IntegrationInstallationToken:
    """A temporary token (an hour) that authenticates as the installation, with its scopes."""
    return IntegrationInstallationToken(token=tokens.create_token(who, integrationName, installationId))
