"""/integrations/{integrationName}/installations/{installationId}/spaces|sites[/{id}]: an installation
set up on its organization's spaces and sites."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.schemas.integrations import InstallOnSite, InstallOnSpace, UpdateContentInstallation
from bindery.api.wire.models.integrations import (
    IntegrationSiteInstallation,
    IntegrationSiteInstallationList,
    IntegrationSpaceInstallation,
    IntegrationSpaceInstallationList,
)
from bindery.domain.integrations import content_installs
from integrations_api import shapes

router = Router()
Extended = Annotated[bool, Query()]


@router.get("/spaces")
def list_spaces(integrationName: str, installationId: str, who: Who, *,  # noqa: N803
                page: PageCursor = None, limit: PageLimit = None,
                extended: Extended = False) -> IntegrationSpaceInstallationList:
    found = content_installs.list_setups(who, integrationName, installationId, "space", None,
                                         extended=extended, limit=page_limit(limit), page=page)
    return IntegrationSpaceInstallationList.model_validate(found.map(shapes.space_installation).to_wire())


@router.post("/spaces", status_code=201)
def install_on_space(integrationName: str, installationId: str, who: Who,  # noqa: N803
                     body: Annotated[InstallOnSpace, Body()], *,
                     extended: Extended = False) -> Response[IntegrationSpaceInstallation]:
    shaped = shapes.space_installation(content_installs.install_on(
        who, integrationName, installationId, "space", body.space, extended=extended))
    return Response(status_code=201, content_type="application/json", body=shaped,
                    headers={"Location": shaped.urls.location})


@router.get("/spaces/<spaceId>")
def get_space_installation(integrationName: str, installationId: str, spaceId: str, who: Who, *,  # noqa: N803
                           extended: Extended = False) -> IntegrationSpaceInstallation:
    return shapes.space_installation(content_installs.get_on(who, integrationName, installationId, "space",
                                                              spaceId, extended=extended))


@router.patch("/spaces/<spaceId>")
def update_space_installation(integrationName: str, installationId: str, spaceId: str, who: Who,  # noqa: N803
                              body: Annotated[UpdateContentInstallation, Body()], *,
                              extended: Extended = False) -> IntegrationSpaceInstallation:
    return shapes.space_installation(content_installs.update_on(who, integrationName, installationId, "space",
                                                                 spaceId, body=body, extended=extended))


@router.delete("/spaces/<spaceId>", status_code=204)
def uninstall_from_space(integrationName: str, installationId: str, spaceId: str,  # noqa: N803
                         who: Who) -> Response[str]:
    content_installs.uninstall_from(who, integrationName, installationId, "space", spaceId)
    return Response(status_code=204, body="")


@router.get("/sites")
def list_sites(integrationName: str, installationId: str, who: Who, *,  # noqa: N803
               page: PageCursor = None, limit: PageLimit = None,
               extended: Extended = False) -> IntegrationSiteInstallationList:
    found = content_installs.list_setups(who, integrationName, installationId, "site", None,
                                         extended=extended, limit=page_limit(limit), page=page)
    return IntegrationSiteInstallationList.model_validate(found.map(shapes.site_installation).to_wire())


@router.post("/sites", status_code=201)
def install_on_site(integrationName: str, installationId: str, who: Who,  # noqa: N803
                    body: Annotated[InstallOnSite, Body()], *,
                    extended: Extended = False) -> Response[IntegrationSiteInstallation]:
    shaped = shapes.site_installation(content_installs.install_on(
        who, integrationName, installationId, "site", body.siteId, extended=extended))
    return Response(status_code=201, content_type="application/json", body=shaped,
                    headers={"Location": shaped.urls.location})


@router.get("/sites/<siteId>")
def get_site_installation(integrationName: str, installationId: str, siteId: str, who: Who, *,  # noqa: N803
                          extended: Extended = False) -> IntegrationSiteInstallation:
    return shapes.site_installation(content_installs.get_on(who, integrationName, installationId, "site",
                                                             siteId, extended=extended))


@router.patch("/sites/<siteId>")
def update_site_installation(integrationName: str, installationId: str, siteId: str, who: Who,  # noqa: N803
                             body: Annotated[UpdateContentInstallation, Body()], *,
                             extended: Extended = False) -> IntegrationSiteInstallation:
    return shapes.site_installation(content_installs.update_on(who, integrationName, installationId, "site",
                                                                siteId, body=body, extended=extended))


@router.delete("/sites/<siteId>", status_code=204)
def uninstall_from_site(integrationName: str, installationId: str, siteId: str,  # noqa: N803
                        who: Who) -> Response[str]:
    content_installs.uninstall_from(who, integrationName, installationId, "site", siteId)
    return Response(status_code=204, body="")
