"""Listing change requests: of a space (GSI1, by status) and of an organization (GSI3, by status).

Each page is ONE Query, newest first. The filters the spec names (creator, contributor, requested
reviewer, conversations issues cluster) narrow that Query (FilterExpression on attributes of the change
request item: `createdBy`, the `contributors` and `requestedReviewers` string sets,
`conversationsIssuesCluster`), so a page may hold fewer than `limit` items and still have a next page:
the cursor always continues where DynamoDB stopped reading, never skipping an item.

The organization listing shows only change requests of spaces the caller may read: the page's spaces
are read in one BatchGetItem and the caller's roles on them computed from one more
(content_access.member_roles); items of other spaces — and of deleted ones — are dropped from the page
after it is read, as ORG/spaces does. The space listing's `count` is the space's counter for the status
(unfiltered) or one `Select=COUNT` Query (filtered); the organization listing's is what the caller may
see, counted by its first page with a pass over the rest (pagination.carried_count).
"""

from __future__ import annotations

from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import member_roles, roles_on, space_access
from bindery.domain.change_requests.records import ChangeRequestView, is_outdated, named_users
from bindery.domain.people import load_users
from bindery.platform.pagination import (
    MAX_LIMIT,
    Listing,
    carried_count,
    decode_cursor,
    encode_cursor,
    next_page,
    open_page,
)
from bindery.store import change_requests as cr_store
from bindery.store import spaces as space_store

# Re-exported: the routes build the listing's filters under this name.
from bindery.store.change_request_filters import Filters as Filters  # noqa: PLC0414
from bindery.store.change_requests import ChangeRequest
from bindery.store.members import Member
from bindery.store.spaces import Space


def _scope(filters: Filters) -> str:
    """What a cursor is bound to: a page of one filtered listing never continues another."""
    return "|".join(str(value or "") for value in (
        filters.status, filters.creator, filters.contributor, filters.requested_reviewer,
        filters.conversations_issues_cluster))


def _views(change_requests: list[ChangeRequest], spaces: dict[str, Space],
           viewer: Member) -> list[ChangeRequestView]:
    """The page's change requests with the users they name (one BatchGetItem for the page)."""
    users = load_users((uid for cr in change_requests for uid in named_users(cr)), viewer=viewer)
    return [ChangeRequestView(cr, users, is_outdated(cr, spaces[cr.space_id])) for cr in change_requests]


def list_for_space(caller: Caller, space_id: str, filters: Filters, *, limit: int,
                   page: str | None) -> Listing[ChangeRequestView]:
    access = space_access(caller, space_id)
    space = access.node
    assert isinstance(space, Space)
    scope = f"change-requests:{space_id}:{_scope(filters)}"
    result = cr_store.space_page(space_id, filters.status, limit, decode_cursor(scope, page),
                                 filters.expression())
    change_requests = [ChangeRequest.from_item(item) for item in result.items]
    narrow = filters.expression()
    # Unfiltered, the space's counters (read by the access check) are the count; a filter costs one
    # `Select=COUNT` Query more.
    count = (space.change_requests_in(filters.status) if narrow is None
             else cr_store.space_count(space_id, filters.status, narrow))
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    return Listing(items=_views(change_requests, {space.id: space}, access.member), next_cursor=cursor,
                   count=count)


def list_for_organization(caller: Caller, org_id: str, filters: Filters, *, limit: int,
                          page: str | None) -> Listing[ChangeRequestView]:
    # The caller is in the scope: the count a cursor carries is what they may see.
    scope = f"org-change-requests:{org_id}:{_scope(filters)}:{caller.user_id}"
    start = open_page(scope, page)

    def read(start_key: dict[str, Any] | None, size: int
             ) -> tuple[list[ChangeRequest], dict[str, Space], dict[str, Any] | None]:
        result = cr_store.org_page(org_id, filters.status, size, start_key, filters.expression())
        change_requests = [ChangeRequest.from_item(item) for item in result.items]
        spaces = space_store.get_spaces([cr.space_id for cr in change_requests])
        live = {space.id: space for space in spaces.values()
                if space.deleted_at is None and space.org_id == org_id}
        return change_requests, live, result.last_key

    change_requests, spaces, last_key = read(start.start, limit)
    # Membership is read with the page's roles: a non-member gets 404 and nothing read.
    member, roles = member_roles(org_id, caller, list(spaces.values()))
    visible = [cr for cr in change_requests if roles.get(cr.space_id) is not None]

    # Which change requests the caller may see depends on their role in each space: the first page
    # counts them with a pass over the rest of the listing, and its cursor carries the count.
    def seen(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        more, more_spaces, more_last = read(start_key, MAX_LIMIT)
        more_roles = roles_on(member, list(more_spaces.values()))
        return sum(more_roles.get(cr.space_id) is not None for cr in more), more_last

    count = carried_count(start, (len(visible), last_key), seen)
    return Listing(_views(visible, spaces, member), next_page(scope, last_key, count), count)
