"""Which revision a content read is about, from its path: the space's current content (`…/content`), a
revision (`…/revisions/{revisionId}`) or a change request's (`…/change-requests/{changeRequestId}/content`).

Each route of content_api.routes.reads is declared under the three paths; this dependency tells them
apart. The ids are read from the request's path against the route's template: API Gateway names no
`revisionId` (its resource is `…/revisions/{proxy+}`), and Powertools keeps only the route function's own
arguments among its path values. For the same reason the app's check of impossible ids (bindery.api.http)
does not see these, so it is made here, with the same 404s.
"""

from __future__ import annotations

from aws_lambda_powertools.event_handler.request import Request

from bindery.domain.access.content import NO_SPACE
from bindery.domain.change_requests.records import NO_CHANGE_REQUEST
from bindery.domain.content_reads import NO_REVISION, ContentRef
from bindery.platform.errors import NotFound
from bindery.platform.ids import plausible

_UNKNOWN = {"spaceId": NO_SPACE, "revisionId": NO_REVISION, "changeRequestId": NO_CHANGE_REQUEST}


def content_ref(request: Request) -> ContentRef:
    names = request.route.split("/")
    values = request.resolved_event.path.split("/")
    ids = {name[1:-1]: value for name, value in zip(names, values, strict=False)
           if name[1:-1] in _UNKNOWN and name.startswith("{")}
    for name, value in ids.items():  # in the path's order, as the app checks the others
        if not plausible(value):
            raise NotFound(_UNKNOWN[name])
    if "spaceId" not in ids:
        raise NotFound(NO_SPACE)
    return ContentRef(ids["spaceId"], revision_id=ids.get("revisionId"),
                      change_request_id=ids.get("changeRequestId"))
