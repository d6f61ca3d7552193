"""/spaces/{spaceId}: read, change settings, delete, restore, duplicate."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.responses.spaces import Space
from bindery.api.route_params import Who
from bindery.api.wire.spaces import space_model
from bindery.domain.spaces import lifecycle
from bindery.domain.spaces import records as domain
from bindery.requests.spaces import UpdateSpace

router = Router()


@router.get("/spaces/<spaceId>")
def get_space(
    spaceId: str, who: Who,
    shareKey: Annotated[str | None, Query(max_length=512)] = None,
) -> Space:
    # `shareKey` resolves share-link published content; nothing is published yet, so members only.
    return space_model(domain.get_space(who, spaceId))


@router.patch("/spaces/<spaceId>")
def update_space(
    spaceId: str, who: Who,
    body: Annotated[UpdateSpace, Body()],
) -> Space:
    return space_model(domain.update_space(who, spaceId, body))


@router.delete("/spaces/<spaceId>",
               status_code=204, responses={204: {"description": "Space deleted, or did not exist"}})
def delete_space(spaceId: str, who: Who) -> Response[str]:
    lifecycle.delete_space(who, spaceId)
    return Response(status_code=204, body="")


@router.post("/spaces/<spaceId>/restore")
def restore_space(spaceId: str, who: Who) -> Space:
    return space_model(lifecycle.restore_space(who, spaceId))


@router.post("/spaces/<spaceId>/duplicate",
             status_code=201, responses={201: {"description": "Space duplicated"}})
def duplicate_space(spaceId: str, who: Who) -> Space:
    return space_model(lifecycle.duplicate_space(who, spaceId))
