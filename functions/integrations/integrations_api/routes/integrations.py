"""/integrations and /integrations/{integrationName}: list, publish, read, unpublish; development mode;
the integration's space and site installations (the developer's view)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.schemas.integrations import Category, IntegrationDevMode, PublishIntegration, Scope, Target
from bindery.api.wire.integrations import event_to_wire, event_with_trace
from bindery.api.wire.models.integrations import (
    Integration,
    IntegrationEventList,
    IntegrationEventWithTrace,
    IntegrationList,
    IntegrationSiteInstallationList,
    IntegrationSpaceInstallationList,
)
from bindery.domain.integrations import content_installs, events, publishing
from bindery.store.integrations import IntegrationFilter
from integrations_api import shapes

router = Router()
BlockDomain = Annotated[str | None, Query(max_length=100, pattern=r"^[a-zA-Z0-9\-_.]+$")]
ExternalId = Annotated[str | None, Query(max_length=200)]
Extended = Annotated[bool, Query()]


@router.get("")
def list_integrations(
    who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    search: Annotated[str | None, Query(max_length=100)] = None,
    category: Annotated[Category | None, Query()] = None,
    blockDomain: BlockDomain = None,  # noqa: N803
    blocks: Annotated[bool | None, Query()] = None,
    contentSources: Annotated[bool | None, Query()] = None,  # noqa: N803
    owner: Annotated[str | None, Query(max_length=100)] = None,
    scope: Annotated[Scope | None, Query()] = None,
    target: Annotated[Target | None, Query()] = None,
) -> IntegrationList:
    """Public integrations, and the private and unlisted ones of `owner` for its members."""
    narrow = IntegrationFilter(search=search, category=category, block_domain=blockDomain, blocks=blocks,
                               content_sources=contentSources, scope=scope, target=target)
    found = publishing.list_integrations(who, narrow, owner=owner, listed_for=None, limit=page_limit(limit),
                                         page=page)
    return IntegrationList.model_validate(found.map(shapes.integration).to_wire())


@router.get("/<integrationName>")
def get_integration(integrationName: str, who: Who) -> Integration:  # noqa: N803
    return shapes.integration(publishing.get(who, integrationName))


@router.post("/<integrationName>")
def publish_integration(integrationName: str, who: Who,  # noqa: N803
                        body: Annotated[PublishIntegration, Body()]) -> Integration:
    return shapes.integration(publishing.publish(who, integrationName, body))


@router.delete("/<integrationName>", status_code=204)
def unpublish_integration(integrationName: str, who: Who) -> Response[str]:  # noqa: N803
    publishing.unpublish(who, integrationName)
    return Response(status_code=204, body="")


@router.put("/<integrationName>/dev", status_code=204)
def set_dev_mode(integrationName: str, who: Who,  # noqa: N803
                 body: Annotated[IntegrationDevMode, Body()]) -> Response[str]:
    publishing.set_dev_mode(who, integrationName, body.tunnelUrl, body.all)
    return Response(status_code=204, body="")


@router.delete("/<integrationName>/dev", status_code=205,
               responses={205: {"description": "Development mode disabled"}})
def disable_dev_mode(integrationName: str, who: Who) -> Response[str]:  # noqa: N803
    """205, the one answer the official spec declares (Reset Content: no body)."""
    publishing.set_dev_mode(who, integrationName, None, False)
    return Response(status_code=205, body="")


@router.get("/<integrationName>/spaces")
def list_space_installations(integrationName: str, who: Who, *,  # noqa: N803
                             page: PageCursor = None, limit: PageLimit = None,
                             externalId: ExternalId = None,  # noqa: N803
                             extended: Extended = False) -> IntegrationSpaceInstallationList:
    found = content_installs.list_setups(who, integrationName, None, "space", externalId, extended=extended,
                                         limit=page_limit(limit), page=page)
    return IntegrationSpaceInstallationList.model_validate(found.map(shapes.space_installation).to_wire())


@router.get("/<integrationName>/sites")
def list_site_installations(integrationName: str, who: Who, *,  # noqa: N803
                            page: PageCursor = None, limit: PageLimit = None,
                            externalId: ExternalId = None,  # noqa: N803
                            extended: Extended = False) -> IntegrationSiteInstallationList:
    found = content_installs.list_setups(who, integrationName, None, "site", externalId, extended=extended,
                                         limit=page_limit(limit), page=page)
    return IntegrationSiteInstallationList.model_validate(found.map(shapes.site_installation).to_wire())


@router.get("/<integrationName>/events")
def list_events(integrationName: str, who: Who, *,  # noqa: N803
                page: PageCursor = None, limit: PageLimit = None) -> IntegrationEventList:
    """The integration's events, newest first (its owner's admins)."""
    found = events.list_events(who, integrationName, limit=page_limit(limit), page=page)
    return IntegrationEventList.model_validate(found.map(event_to_wire).to_wire())


@router.get("/<integrationName>/events/<eventId>")
def get_event(integrationName: str, eventId: str, who: Who) -> IntegrationEventWithTrace:  # noqa: N803
    return event_with_trace(events.get_event(who, integrationName, eventId))
