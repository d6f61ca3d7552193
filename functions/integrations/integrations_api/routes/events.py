"""/integrations/{integrationName}/events and its signing secret: what Bindery delivered to the
integration, and the secret that signs its deliveries (its owner's admins)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.dependencies import page_limit
from bindery.api.responses.integrations import (
    IntegrationEventList,
    IntegrationEventWithTrace,
    IntegrationSigningSecrets,
)
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.integrations import event_to_wire, event_with_trace
from bindery.api.wire.lists import list_page
from bindery.domain.integrations import events, sealed_secrets

router = Router()


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
