"""/integrations/{integrationName}/installations/{installationId}/spaces|sites[/{id}]: an installation
set up on its organization's spaces and sites.

The space and site routes are one set of route functions (`_declare`), declared for each kind with its
names (operation, path variable) and shapes (integrations_api.install_targets)."""

from __future__ import annotations

from types import GenericAlias
from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.route_signatures import declared_as
from bindery.domain.integrations import content_installs
from bindery.requests.integrations import UpdateContentInstallation
from integrations_api.install_targets import SITE, SPACE, Install, InstallTarget, Shelf, Shown

router = Router()
Extended = Annotated[bool, Query()]


def _declare(target: InstallTarget[Install, Shown, Shelf]) -> None:
    kind = target.kind
    one = f"/{target.plural}/<{target.id_param}>"
    path_id = {"content_id": target.id_param}

    def list_setups(integrationName: str, installationId: str, who: Who, *,
                    page: PageCursor = None, limit: PageLimit = None, extended: Extended = False) -> Shelf:
        found = content_installs.list_setups(who, integrationName, installationId, kind, None,
                                             extended=extended, limit=page_limit(limit), page=page)
        return target.shelf.model_validate(found.map(target.shape).to_wire())

    def install_on(integrationName: str, installationId: str, who: Who,
                   body: Annotated[Install, Body()], *, extended: Extended = False) -> Response[Shown]:
        view = content_installs.install_on(who, integrationName, installationId, kind,
                                           target.installed_on(body), extended=extended)
        shaped = target.shape(view)
        return Response(status_code=201, content_type="application/json", body=shaped,
                        headers={"Location": shaped.urls.location})

    def get_on(integrationName: str, installationId: str, content_id: str, who: Who, *,
               extended: Extended = False) -> Shown:
        return target.shape(content_installs.get_on(who, integrationName, installationId, kind, content_id,
                                                    extended=extended))

    def update_on(integrationName: str, installationId: str, content_id: str, who: Who,
                  body: Annotated[UpdateContentInstallation, Body()], *, extended: Extended = False) -> Shown:
        return target.shape(content_installs.update_on(who, integrationName, installationId, kind, content_id,
                                                       body=body, extended=extended))

    def uninstall_from(integrationName: str, installationId: str, content_id: str,
                       who: Who) -> Response[str]:
        content_installs.uninstall_from(who, integrationName, installationId, kind, content_id)
        return Response(status_code=204, body="")

    router.get(f"/{target.plural}")(
        declared_as(list_setups, name=f"list_{target.plural}", types={"return": target.shelf}))
    # Response[target.shown], which mypy refuses to read as a type: target.shown is a value.
    created = GenericAlias(Response, (target.shown,))
    router.post(f"/{target.plural}", status_code=201)(
        declared_as(install_on, name=f"install_on_{kind}",
                    types={"body": Annotated[target.install, Body()], "return": created}))
    router.get(one)(declared_as(get_on, name=f"get_{kind}_installation", renamed=path_id,
                                types={"return": target.shown}))
    router.patch(one)(declared_as(update_on, name=f"update_{kind}_installation", renamed=path_id,
                                  types={"return": target.shown}))
    router.delete(one, status_code=204)(declared_as(uninstall_from, name=f"uninstall_from_{kind}",
                                                    renamed=path_id))


_declare(SPACE)
_declare(SITE)
