"""ORG/change-requests: the organization's change requests, in the spaces the caller may read."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.schemas.change_requests import Status
from bindery.api.wire.models.change_requests import ChangeRequestList
from bindery.domain.change_requests import listing
from change_requests_api.routes.change_requests import shown

router = Router()


@router.get("")
def list_change_requests(
    organizationId: str, who: Who, *,  # noqa: N803
    page: PageCursor = None,
    limit: PageLimit = None,
    status: Annotated[Status, Query()] = "open",
    creator: Annotated[str | None, Query(min_length=1)] = None,
    contributor: Annotated[str | None, Query(min_length=1)] = None,
    requestedReviewer: Annotated[str | None, Query(min_length=1)] = None,  # noqa: N803
    conversationsIssuesCluster: Annotated[str | None, Query(min_length=1)] = None,  # noqa: N803
) -> ChangeRequestList:
    # Membership is checked with the page's spaces (one BatchGetItem): a non-member gets 404.
    filters = listing.Filters(status, creator, contributor, requestedReviewer, conversationsIssuesCluster)
    found = listing.list_for_organization(who, organizationId, filters, limit=page_limit(limit), page=page)
    return ChangeRequestList.model_validate(found.map(shown).to_wire())
