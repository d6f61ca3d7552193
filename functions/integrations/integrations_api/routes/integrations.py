"""/integrations and /integrations/{integrationName}: list, publish, read, unpublish; development mode;
the integration's space and site installations (the developer's view)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.integrations import (
    Integration,
    IntegrationEventList,
    IntegrationEventWithTrace,
    IntegrationList,
    IntegrationSigningSecrets,
    IntegrationSiteInstallationList,
    IntegrationSpaceInstallationList,
)
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.integrations import event_to_wire, event_with_trace, integration_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.integrations import content_installs, events, publishing, sealed_secrets
from bindery.requests.integrations import IntegrationDevMode, PublishIntegration
from integrations_api.install_targets import SITE, SPACE, Install, InstallTarget, Shelf, Shown
from integrations_api.listing_query import ListingQuery, with_listing_query

router = Router()
ExternalId = Annotated[str | None, Query(max_length=200)]
Extended = Annotated[bool, Query()]


@router.get("/integrations")
@with_listing_query
def list_integrations(who: Who, *, page: PageCursor = None, limit: PageLimit = None,
                      query: ListingQuery) -> IntegrationList:
    """Public integrations, and the private and unlisted ones of `owner` for its members."""
    found = publishing.list_integrations(who, query.narrowing(), owner=query.owner, listed_for=None,
                                         limit=page_limit(limit), page=page)
    return list_page(IntegrationList, found, integration_to_wire)


@router.get("/integrations/<integrationName>")
def get_integration(integrationName: str, who: Who) -> Integration:
    return integration_to_wire(publishing.get(who, integrationName))


@router.post("/integrations/<integrationName>")
def publish_integration(integrationName: str, who: Who,
                        body: Annotated[PublishIntegration, Body()]) -> Integration:
    return integration_to_wire(publishing.publish(who, integrationName, body))


@router.delete("/integrations/<integrationName>", status_code=204)
def unpublish_integration(integrationName: str, who: Who) -> Response[str]:
    publishing.unpublish(who, integrationName)
    return Response(status_code=204, body="")


@router.put("/integrations/<integrationName>/dev", status_code=204)
def set_dev_mode(integrationName: str, who: Who,
                 body: Annotated[IntegrationDevMode, Body()]) -> Response[str]:
    publishing.set_dev_mode(who, integrationName, body.tunnelUrl, body.all)
    return Response(status_code=204, body="")


@router.delete("/integrations/<integrationName>/dev", status_code=205,
               responses={205: {"description": "Development mode disabled"}})
def disable_dev_mode(integrationName: str, who: Who) -> Response[str]:
    """205, the one answer the official spec declares (Reset Content: no body)."""
    publishing.set_dev_mode(who, integrationName, None, False)
    return Response(status_code=205, body="")


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


@router.get("/integrations/<integrationName>/signing-secrets")
def get_signing_secrets(integrationName: str, who: Who) -> IntegrationSigningSecrets:
    """The signing secret Bindery generated for the integration, which signs its event deliveries unless
    it published a `SIGNING_SECRET` (its owner's admins; a Bindery extension)."""
    return IntegrationSigningSecrets(integration=sealed_secrets.read_signing_secret(who, integrationName))


@router.get("/integrations/<integrationName>/events")
def list_events(integrationName: str, who: Who, *,
                page: PageCursor = None, limit: PageLimit = None) -> IntegrationEventList:
    """The integration's events, newest first (its owner's admins)."""
    found = events.list_events(who, integrationName, limit=page_limit(limit), page=page)
    return list_page(IntegrationEventList, found, event_to_wire)


@router.get("/integrations/<integrationName>/events/<eventId>")
def get_event(integrationName: str, eventId: str, who: Who) -> IntegrationEventWithTrace:
    return event_with_trace(events.get_event(who, integrationName, eventId))
