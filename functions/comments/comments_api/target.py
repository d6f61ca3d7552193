"""The comment target a request is about, from its path: the space, or a change request of the space.

The same routers serve `/spaces/{spaceId}/…` and `/spaces/{spaceId}/change-requests/{changeRequestId}/…`;
this dependency tells them apart. The ids come from API Gateway's pathParameters, which every route of
the function carries (Powertools keeps only the route function's own arguments among its path values).
"""

from __future__ import annotations

from aws_lambda_powertools.event_handler.request import Request

from bindery.domain.access.content import NO_SPACE
from bindery.domain.comments.targets import TargetRef
from bindery.platform.errors import NotFound


def comment_target(request: Request) -> TargetRef:
    params = request.resolved_event.raw_event.get("pathParameters") or {}
    space_id = params.get("spaceId")
    if not space_id:
        raise NotFound(NO_SPACE)
    return TargetRef(space_id=space_id, change_request_id=params.get("changeRequestId") or None)
