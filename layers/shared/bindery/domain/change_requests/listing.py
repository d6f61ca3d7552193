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
(unfiltered) or one `Select=COUNT` Query (filtered); the organization listing has no `count` yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boto3.dynamodb.conditions import Attr

from bindery.api.wire.change_requests import change_request_to_wire, change_request_users
from bindery.auth import Caller
from bindery.domain.access.content import member_roles, space_access
from bindery.domain.change_requests.records import is_outdated
from bindery.domain.people import load_users
from bindery.pagination import Listing, decode_cursor, encode_cursor
from bindery.store import change_requests as cr_store
from bindery.store import spaces as space_store
from bindery.store.change_requests import ChangeRequest
from bindery.store.spaces import Space


@dataclass(frozen=True)
class Filters:
    status: str = "open"
    creator: str | None = None
    contributor: str | None = None
    requested_reviewer: str | None = None
    conversations_issues_cluster: str | None = None

    def scope(self) -> str:
        return "|".join(str(value or "") for value in (
            self.status, self.creator, self.contributor, self.requested_reviewer,
            self.conversations_issues_cluster))

    def expression(self) -> Any:
        conditions: list[Any] = []
        if self.creator:
            conditions.append(Attr("createdBy").eq(self.creator))
        if self.contributor:
            conditions.append(Attr("contributors").contains(self.contributor))
        if self.requested_reviewer:
            conditions.append(Attr("requestedReviewers").contains(self.requested_reviewer))
        if self.conversations_issues_cluster:
            conditions.append(Attr("conversationsIssuesCluster").eq(self.conversations_issues_cluster))
        if not conditions:
            return None
        combined: Any = conditions[0]
        for condition in conditions[1:]:
            combined = combined & condition
        return combined


def _wire(change_requests: list[ChangeRequest], spaces: dict[str, Space]) -> list[dict[str, Any]]:
    users = load_users(uid for cr in change_requests for uid in change_request_users(cr))
    return [change_request_to_wire(cr, users, outdated=is_outdated(cr, spaces[cr.space_id]))
            for cr in change_requests]


def list_for_space(caller: Caller, space_id: str, filters: Filters, *, limit: int,
                   page: str | None) -> Listing:
    access = space_access(caller, space_id)
    space = access.node
    assert isinstance(space, Space)
    scope = f"change-requests:{space_id}:{filters.scope()}"
    result = cr_store.space_page(space_id, filters.status, limit, decode_cursor(scope, page),
                                 filters.expression())
    change_requests = [ChangeRequest.from_item(item) for item in result.items]
    narrow = filters.expression()
    # Unfiltered, the space's counters (read by the access check) are the count; a filter costs one
    # `Select=COUNT` Query more.
    count = (space.change_requests_in(filters.status) if narrow is None
             else cr_store.space_count(space_id, filters.status, narrow))
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    return Listing(items=_wire(change_requests, {space.id: space}), next_cursor=cursor, count=count)


def list_for_organization(caller: Caller, org_id: str, filters: Filters, *, limit: int,
                          page: str | None) -> Listing:
    scope = f"org-change-requests:{org_id}:{filters.scope()}"
    result = cr_store.org_page(org_id, filters.status, limit, decode_cursor(scope, page),
                               filters.expression())
    change_requests = [ChangeRequest.from_item(item) for item in result.items]
    spaces = space_store.get_spaces([cr.space_id for cr in change_requests])
    live = [space for space in spaces.values() if space.deleted_at is None and space.org_id == org_id]
    # Membership is read with the page's roles: a non-member gets 404 and nothing read.
    _, roles = member_roles(org_id, caller.user_id, live)
    visible = [cr for cr in change_requests if roles.get(cr.space_id) is not None]
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    return Listing(items=_wire(visible, spaces), next_cursor=cursor)
