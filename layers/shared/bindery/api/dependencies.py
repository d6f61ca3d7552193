"""Powertools `Depends` providers shared by every function (tests swap them with dependency_overrides)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.request import Request

from bindery.domain.access.auth import Caller, current_caller
from bindery.domain.access.organization import OrgAccess, org_access
from bindery.platform.errors import BadRequest, NotFound
from bindery.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT


def caller(request: Request) -> Caller:
    return current_caller(request)


def organization(request: Request) -> OrgAccess:
    """The organization named in the path, with the caller's membership (404 for non-members)."""
    # Powertools' validation keeps only the route function's own arguments in `path_parameters`, so the
    # id comes from API Gateway's pathParameters, which every /orgs/{organizationId}/… resource carries.
    org_id = (request.resolved_event.raw_event.get("pathParameters") or {}).get("organizationId")
    if not org_id:
        raise NotFound("No matching organization")
    return org_access(org_id, current_caller(request))


def page_limit(limit: float | None) -> int:
    """`limit` as a Query Limit: the spec types it as a number from 0 to 1000 (the route checks the
    range); 0 means the default. A count of items has no fraction, so `2.5` is refused, not rounded."""
    if not limit:
        return DEFAULT_LIMIT
    if limit != int(limit):
        raise BadRequest(f"limit: must be a whole number from 0 to {MAX_LIMIT}, not {limit:g}")
    return int(limit)
