"""The space or collection a permissions request is about, from its path.

One router serves `/spaces/{spaceId}/permissions/…` and `/collections/{collectionId}/permissions/…`; this
dependency tells them apart. The ids come from API Gateway's pathParameters, which every route of the
function carries (Powertools keeps only the route function's own arguments among its path values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from aws_lambda_powertools.event_handler.request import Request

from bindery.domain.access.content import NO_SPACE
from bindery.platform.errors import NotFound


@dataclass(frozen=True)
class ContentRef:
    kind: Literal["space", "collection"]
    id: str


def permission_target(request: Request) -> ContentRef:
    params = request.resolved_event.raw_event.get("pathParameters") or {}
    if space_id := params.get("spaceId"):
        return ContentRef("space", space_id)
    if collection_id := params.get("collectionId"):
        return ContentRef("collection", collection_id)
    raise NotFound(NO_SPACE)
