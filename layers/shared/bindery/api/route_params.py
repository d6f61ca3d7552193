"""Parameter types that many routes declare the same way (Powertools reads the `Annotated` metadata, so
an alias means exactly what writing it out does, OpenAPI document included)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import caller, organization
from bindery.auth import Caller
from bindery.domain.access.organization import OrgAccess
from bindery.pagination import MAX_LIMIT

Who = Annotated[Caller, Depends(caller)]  # the authenticated caller
# The organization of the path's `organizationId`, with the caller's membership (404 for non-members).
MemberOf = Annotated[OrgAccess, Depends(organization)]
PageCursor = Annotated[str | None, Query()]  # a listing's `page`: the opaque cursor of `next.page`
# A listing's `limit`: the spec's number from 0 to 1000 (dependencies.page_limit reads it).
PageLimit = Annotated[float | None, Query(ge=0, le=MAX_LIMIT)]
