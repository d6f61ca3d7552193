"""Applying a template to a space's content (applyTemplateToSpace; the templates: docs/templates.md)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.route_params import Who
from bindery.domain import templates
from bindery.requests.templates import ApplySpaceTemplate

router = Router()


@router.post("/spaces/<spaceId>/content/template", status_code=201,
             responses={201: {"description": "Template applied to space."}})
def apply_template(
    spaceId: str, who: Who,
    body: Annotated[ApplySpaceTemplate, Body()],
) -> Response[str]:
    templates.apply_template(who, spaceId, body)
    return Response(status_code=201, body="")
