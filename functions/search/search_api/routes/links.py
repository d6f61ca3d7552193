"""GET /spaces/{spaceId}/links: every link of the space's current revision, with its status."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.links import usages_to_wire, where
from bindery.api.wire.models.content import ContentReferenceUsageList
from bindery.domain import links as domain

router = Router()
Status = Literal["ok", "broken", "in-app"]


@router.get("/spaces/<spaceId>/links")
def list_space_links(
    spaceId: str, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    status: Annotated[Status | None, Query()] = None,
) -> ContentReferenceUsageList:
    found = domain.list_links(who, spaceId, None, status=status, limit=page_limit(limit), page=page)
    scene, stats = found.scene, found.stats
    at = where(scene.organization, scene.org_role, scene.space, scene.space_role,
               revision_id=scene.revision.id, current=scene.current)
    return usages_to_wire(at, found.usages, total=stats.total, broken=stats.broken,
                          broken_by_change_request=stats.change_request)
