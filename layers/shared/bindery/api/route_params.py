"""Parameter types that many routes declare the same way (Powertools reads the `Annotated` metadata, so
an alias means exactly what writing it out does, OpenAPI document included)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from bindery.api.dependencies import caller, organization
from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess
from bindery.platform.ids import MAX_ID_LENGTH
from bindery.platform.pagination import MAX_LIMIT

Who = Annotated[Caller, Depends(caller)]  # the authenticated caller
# The organization of the path's `organizationId`, with the caller's membership (404 for non-members).
MemberOf = Annotated[OrgAccess, Depends(organization)]
PageCursor = Annotated[str | None, Query()]  # a listing's `page`: the opaque cursor of `next.page`
# A listing's `limit`: the spec's number from 0 to 1000 (dependencies.page_limit reads it).
PageLimit = Annotated[float | None, Query(ge=0, le=MAX_LIMIT)]
# A query parameter that names an id to filter by (`creator`, `space`…): longer than any id, it is a 400
# naming it before it reaches a key (DynamoDB refuses keys over 2,048 / 1,024 bytes: issue 39).
IdFilter = Annotated[str | None, Query(min_length=1, max_length=MAX_ID_LENGTH)]
# The same for a filter that names several (`authors`).
IdsFilter = Annotated[list[Annotated[str, Field(min_length=1, max_length=MAX_ID_LENGTH)]] | None, Query()]
