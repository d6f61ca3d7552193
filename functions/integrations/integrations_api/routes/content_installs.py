"""/integrations/{integrationName}/installations/{installationId}/spaces|sites[/{id}]: an installation
set up on its organization's spaces and sites; /integrations/{integrationName}/spaces|sites: the
integration's setups across its installations (the developer's view).

Each route is written out, so that grep finds its path; a space's and a site's routes share their work
(`_list`, `_install`, ...), which takes the kind's names and shapes (integrations_api.install_targets)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.content_installations import (
    IntegrationSiteInstallation,
    IntegrationSiteInstallationList,
    IntegrationSpaceInstallation,
    IntegrationSpaceInstallationList,
)
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.domain.integrations import content_installs
from bindery.requests.integrations import InstallOnSite, InstallOnSpace, UpdateContentInstallation
from integrations_api.install_targets import SITE, SPACE, Install, InstallTarget, Shelf, Shown

router = Router()
ExternalId = Annotated[str | None, Query(max_length=200)]
Extended = Annotated[bool, Query()]
Update = Annotated[UpdateContentInstallation, Body()]


def _list(target: InstallTarget[Install, Shown, Shelf], who: Who, integrationName: str, installationId: str,
          *, page: PageCursor, limit: PageLimit, extended: bool) -> Shelf:
    found = content_installs.list_setups(who, integrationName, installationId, target.kind, None,
                                         extended=extended, limit=page_limit(limit), page=page)
    return list_page(target.shelf, found, target.shape)


def _install(target: InstallTarget[Install, Shown, Shelf], who: Who, integrationName: str,
             installationId: str, *, body: Install, extended: bool) -> Response[Shown]:
    view = content_installs.install_on(who, integrationName, installationId, target.kind,
                                       target.installed_on(body), extended=extended)
    shaped = target.shape(view)
    return Response(status_code=201, content_type="application/json", body=shaped,
                    headers={"Location": shaped.urls.location})


def _get(target: InstallTarget[Install, Shown, Shelf], who: Who, integrationName: str, installationId: str,
         *, content_id: str, extended: bool) -> Shown:
    return target.shape(content_installs.get_on(who, integrationName, installationId, target.kind, content_id,
                                                extended=extended))


def _update(target: InstallTarget[Install, Shown, Shelf], who: Who, integrationName: str,
            installationId: str, *, content_id: str, body: UpdateContentInstallation,
            extended: bool) -> Shown:
    return target.shape(content_installs.update_on(who, integrationName, installationId, target.kind,
                                                   content_id, body=body, extended=extended))


def _uninstall(target: InstallTarget[Install, Shown, Shelf], who: Who, integrationName: str,
               installationId: str, content_id: str) -> Response[str]:
    content_installs.uninstall_from(who, integrationName, installationId, target.kind, content_id)
    return Response(status_code=204, body="")


def _list_setups(target: InstallTarget[Install, Shown, Shelf], who: Who, integrationName: str, *,
                 page: PageCursor, limit: PageLimit, externalId: str | None, extended: bool) -> Shelf:
    """The integration's setups on spaces or on sites, across its installations (the developer's view)."""
    found = content_installs.list_setups(who, integrationName, None, target.kind, externalId,
                                         extended=extended, limit=page_limit(limit), page=page)
    return list_page(target.shelf, found, target.shape)


@router.get("/integrations/<integrationName>/spaces")
def list_space_installations(integrationName: str, who: Who, *, page: PageCursor = None,
                             limit: PageLimit = None, externalId: ExternalId = None,
                             extended: Extended = False) -> IntegrationSpaceInstallationList:
    return _list_setups(SPACE, who, integrationName, page=page, limit=limit,
                        externalId=externalId, extended=extended)


@router.get("/integrations/<integrationName>/sites")
def list_site_installations(integrationName: str, who: Who, *, page: PageCursor = None,
                            limit: PageLimit = None, externalId: ExternalId = None,
                            extended: Extended = False) -> IntegrationSiteInstallationList:
    return _list_setups(SITE, who, integrationName, page=page, limit=limit,
                        externalId=externalId, extended=extended)


@router.get("/integrations/<integrationName>/installations/<installationId>/spaces")
def list_spaces(integrationName: str, installationId: str, who: Who, *, page: PageCursor = None,
                limit: PageLimit = None, extended: Extended = False) -> IntegrationSpaceInstallationList:
    return _list(SPACE, who, integrationName, installationId, page=page, limit=limit, extended=extended)


@router.post("/integrations/<integrationName>/installations/<installationId>/spaces", status_code=201)
def install_on_space(integrationName: str, installationId: str, who: Who,
                     body: Annotated[InstallOnSpace, Body()], *,
                     extended: Extended = False) -> Response[IntegrationSpaceInstallation]:
    return _install(SPACE, who, integrationName, installationId, body=body, extended=extended)


@router.get("/integrations/<integrationName>/installations/<installationId>/spaces/<spaceId>")
def get_space_installation(integrationName: str, installationId: str, spaceId: str, who: Who, *,
                           extended: Extended = False) -> IntegrationSpaceInstallation:
    return _get(SPACE, who, integrationName, installationId, content_id=spaceId, extended=extended)


@router.patch("/integrations/<integrationName>/installations/<installationId>/spaces/<spaceId>")
def update_space_installation(integrationName: str, installationId: str, spaceId: str, who: Who,
                              body: Update, *, extended: Extended = False) -> IntegrationSpaceInstallation:
    return _update(SPACE, who, integrationName, installationId, content_id=spaceId, body=body,
                   extended=extended)


@router.delete("/integrations/<integrationName>/installations/<installationId>/spaces/<spaceId>",
               status_code=204)
def uninstall_from_space(integrationName: str, installationId: str, spaceId: str,
                         who: Who) -> Response[str]:
    return _uninstall(SPACE, who, integrationName, installationId, spaceId)


@router.get("/integrations/<integrationName>/installations/<installationId>/sites")
def list_sites(integrationName: str, installationId: str, who: Who, *, page: PageCursor = None,
               limit: PageLimit = None, extended: Extended = False) -> IntegrationSiteInstallationList:
    return _list(SITE, who, integrationName, installationId, page=page, limit=limit, extended=extended)


@router.post("/integrations/<integrationName>/installations/<installationId>/sites", status_code=201)
def install_on_site(integrationName: str, installationId: str, who: Who,
                    body: Annotated[InstallOnSite, Body()], *,
                    extended: Extended = False) -> Response[IntegrationSiteInstallation]:
    return _install(SITE, who, integrationName, installationId, body=body, extended=extended)


@router.get("/integrations/<integrationName>/installations/<installationId>/sites/<siteId>")
def get_site_installation(integrationName: str, installationId: str, siteId: str, who: Who, *,
                          extended: Extended = False) -> IntegrationSiteInstallation:
    return _get(SITE, who, integrationName, installationId, content_id=siteId, extended=extended)


@router.patch("/integrations/<integrationName>/installations/<installationId>/sites/<siteId>")
def update_site_installation(integrationName: str, installationId: str, siteId: str, who: Who,
                             body: Update, *, extended: Extended = False) -> IntegrationSiteInstallation:
    return _update(SITE, who, integrationName, installationId, content_id=siteId, body=body,
                   extended=extended)


@router.delete("/integrations/<integrationName>/installations/<installationId>/sites/<siteId>",
               status_code=204)
def uninstall_from_site(integrationName: str, installationId: str, siteId: str, who: Who) -> Response[str]:
    return _uninstall(SITE, who, integrationName, installationId, siteId)
