"""/collections/{collectionId}: read, update, delete, and the spaces directly in it."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.auth import Caller
from bindery.dependencies import caller, page_limit
from bindery.domain import collections as domain
from bindery.pagination import MAX_LIMIT
from bindery.schemas.collections import UpdateCollection

router = Router()


@router.get("")
def get_collection(collectionId: str, who: Annotated[Caller, Depends(caller)]) -> dict[str, Any]:  # noqa: N803
    return domain.get_collection(who, collectionId)


@router.patch("")
def update_collection(
    collectionId: str, who: Annotated[Caller, Depends(caller)],  # noqa: N803
    body: Annotated[UpdateCollection, Body()],
) -> dict[str, Any]:
    return domain.update_collection(who, collectionId, body)


@router.delete("", status_code=204, responses={204: {"description": "Collection deleted, or did not exist"}})
def delete_collection(collectionId: str, who: Annotated[Caller, Depends(caller)]) -> Response[str]:  # noqa: N803
    domain.delete_collection(who, collectionId)
    return Response(status_code=204, body="")


@router.get("/spaces")
def list_spaces(
    collectionId: str, who: Annotated[Caller, Depends(caller)],  # noqa: N803
    page: Annotated[str | None, Query()] = None,
    limit: Annotated[float | None, Query(ge=0, le=MAX_LIMIT)] = None,
) -> dict[str, Any]:
    return domain.list_spaces(who, collectionId, limit=page_limit(limit), page=page).to_wire()
