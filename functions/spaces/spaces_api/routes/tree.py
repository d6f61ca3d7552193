"""Moves within an organization's tree and transfers to another organization, of spaces and collections."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.spaces import Collection, Space
from bindery.api.route_params import Who
from bindery.api.wire.collections import collection_to_wire
from bindery.api.wire.spaces import space_model
from bindery.domain import transfers, tree
from bindery.requests.tree import MoveContent, TransferContent

router = Router()


@router.post("/spaces/<spaceId>/move")
def move_space(
    spaceId: str, who: Who,
    body: Annotated[MoveContent, Body()],
) -> Space:
    return space_model(tree.move_space(who, spaceId, body))


@router.post("/collections/<collectionId>/move")
def move_collection(
    collectionId: str, who: Who,
    body: Annotated[MoveContent, Body()],
) -> Collection:
    return collection_to_wire(tree.move_collection(who, collectionId, body))


@router.post("/spaces/<spaceId>/transfer")
def transfer_space(
    spaceId: str, who: Who,
    body: Annotated[TransferContent, Body()],
) -> Space:
    return space_model(transfers.transfer_space(who, spaceId, body))


@router.post("/collections/<collectionId>/transfer")
def transfer_collection(
    collectionId: str, who: Who,
    body: Annotated[TransferContent, Body()],
) -> Collection:
    return collection_to_wire(transfers.transfer_collection(who, collectionId, body))
