"""ORG/collections: list the organization's collections, create one."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.spaces import Collection, CollectionList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.collections import collection_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain import collections as domain
from bindery.requests.collections import CreateCollection

router = Router()


@router.get("/orgs/<organizationId>/collections")
def list_collections(
    organizationId: str, who: Who,
    page: PageCursor = None,
    limit: PageLimit = None,
    nested: Annotated[bool, Query(description="If true, all nested collections will be listed")] = True,
) -> CollectionList:
    found = domain.list_collections(who, organizationId, nested=nested, limit=page_limit(limit), page=page)
    return list_page(CollectionList, found, collection_to_wire)


@router.post("/orgs/<organizationId>/collections",
             status_code=201, responses={201: {"description": "Collection created"}})
def create_collection(
    organizationId: str, who: Who,
    body: Annotated[CreateCollection | None, Body()] = None,
) -> Response[Collection]:
    # The spec's request body is optional: no body creates an untitled collection at the top level.
    shown = collection_to_wire(domain.create_collection(who, organizationId, body or CreateCollection()))
    # The 201's `Location` is the collection's API URL, which its `urls.location` already is.
    return Response(status_code=201, content_type=content_types.APPLICATION_JSON, body=shown,
                    headers={"Location": shown.urls.location})
