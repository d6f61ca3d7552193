"""/integrations/{integrationName}: publish and unpublish an integration, and its development mode (its
owner's admins)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.integrations import Integration
from bindery.api.route_params import Who
from bindery.api.wire.integrations import integration_to_wire
from bindery.domain.integrations import publishing
from bindery.requests.integrations import IntegrationDevMode, PublishIntegration

router = Router()


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
