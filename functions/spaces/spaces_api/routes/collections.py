"""/collections/{collectionId}: read, update, delete, and the spaces directly in it."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.spaces import Collection, SpaceList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.collections import collection_to_wire
from bindery.api.wire.lists import list_page
from bindery.api.wire.spaces import space_model
from bindery.domain import collections as domain
from bindery.requests.collections import UpdateCollection

router = Router()


@router.get("/collections/<collectionId>")
def get_collection(collectionId: str, who: Who) -> Collection:
    return collection_to_wire(domain.get_collection(who, collectionId))


@router.patch("/collections/<collectionId>")
def update_collection(
    collectionId: str, who: Who,
    body: Annotated[UpdateCollection, Body()],
) -> Collection:
    return collection_to_wire(domain.update_collection(who, collectionId, body))


@router.delete("/collections/<collectionId>",
               status_code=204, responses={204: {"description": "Collection deleted, or did not exist"}})
def delete_collection(collectionId: str, who: Who) -> Response[str]:
    domain.delete_collection(who, collectionId)
    return Response(status_code=204, body="")


@router.get("/collections/<collectionId>/spaces")
def list_spaces(
    collectionId: str, who: Who,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> SpaceList:
    found = domain.list_spaces(who, collectionId, limit=page_limit(limit), page=page)
    return list_page(SpaceList, found, space_model)
