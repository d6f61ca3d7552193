"""Requested reviewers and contributors of a change request.

Requesting needs the `edit` role; the users must be active members of the space's organization. One
transaction (at most 50 users) writes a request item per user and, on the change request, adds them to
`requestedReviewers` (which the listings filter on), forgets their latest review (so that it reads as
outdated: a new review is wanted) and applies the optional subject and description — if the change
request is still draft or open. Removing a request needs `edit`, or to be the requested user.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.roles import at_least
from bindery.domain.change_requests.records import Opened, description_value, open_change_request
from bindery.domain.change_requests.status import EDITABLE
from bindery.domain.people import load_users
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Conflict, Forbidden
from bindery.platform.pagination import Listing, decode_cursor, encode_cursor
from bindery.requests.change_requests import RequestReviewers
from bindery.store import Op, Transaction, TransactionConflict
from bindery.store import members as member_store
from bindery.store import reviews as review_store
from bindery.store.grants import next_updated_at
from bindery.store.reviews import Contributor, RequestedReviewer
from bindery.store.users import User


@dataclass(frozen=True)
class RequestView:
    """A review request with the users it names (the requested user and who asked)."""

    request: RequestedReviewer
    users: Mapping[str, User]


@dataclass(frozen=True)
class ContributorView:
    contributor: Contributor
    users: Mapping[str, User]


def _require_open(opened: Opened) -> None:
    if opened.change_request.status not in EDITABLE:
        raise Conflict(f"This change request is {opened.change_request.status}: reviews can no longer "
                       "be requested")


def _request_op(opened: Opened, user_ids: list[str], body: RequestReviewers) -> Op:
    change_request = opened.change_request
    description = description_value(body.description) if body.description is not None else None
    return review_store.request_reviews_op(change_request.space_id, change_request.id, user_ids,
                                           next_updated_at(change_request.updated_at),
                                           subject=body.subject, description=description)


def request_reviewers(caller: Caller, space_id: str, ref: str, body: RequestReviewers) -> list[RequestView]:
    """The requests made, in the order the body names the users (each once)."""
    opened = open_change_request(caller, space_id, ref, "edit", "request reviews")
    _require_open(opened)
    user_ids = list(dict.fromkeys(body.users))
    if not user_ids:
        raise BadRequest("users: name at least one user")
    members = member_store.get_members(opened.space.org_id, user_ids)
    for index, user_id in enumerate(user_ids):
        member = members.get(user_id)
        if member is None or member.disabled:
            raise BadRequest(f"users[{index}]: {user_id} is not a member of this organization")
    now = now_iso()
    requests = [RequestedReviewer(space_id, opened.change_request.id, user_id, caller.user_id,
                                  opened.change_request.revision, now) for user_id in user_ids]
    try:
        Transaction([*(review_store.put_requested_reviewer_op(r) for r in requests),
                     _request_op(opened, user_ids, body)]).commit()
    except TransactionConflict:
        raise Conflict("The change request was merged or archived meanwhile: nothing was requested") from None
    users = load_users([caller.user_id, *user_ids], viewer=opened.access.member)
    return [RequestView(request, users) for request in requests]


def list_requested_reviewers(caller: Caller, space_id: str, ref: str, *, limit: int,
                             page: str | None) -> Listing[RequestView]:
    opened = open_change_request(caller, space_id, ref)
    scope = f"requested-reviewers:{space_id}:{opened.change_request.id}"
    result = review_store.requested_reviewers_page(space_id, opened.change_request.id, limit,
                                                   decode_cursor(scope, page))
    requests = [RequestedReviewer.from_item(item) for item in result.items]
    users = load_users((uid for r in requests for uid in (r.user_id, r.requested_by)),
                       viewer=opened.access.member)
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    # The change request's `requestedReviewers` set mirrors the request items (same transactions).
    return Listing(items=[RequestView(r, users) for r in requests], next_cursor=cursor,
                   count=len(opened.change_request.requested_reviewers))


def remove_requested_reviewer(caller: Caller, space_id: str, ref: str, user_id: str) -> bool:
    """True if there was such a request (205), False if not (204)."""
    opened = open_change_request(caller, space_id, ref)
    if caller.user_id != user_id and not at_least(opened.access.role, "edit"):
        raise Forbidden("You need the edit role here to remove a review request")
    change_request = opened.change_request
    try:
        Transaction(review_store.withdraw_request_ops(space_id, change_request.id, user_id)).commit()
    except TransactionConflict as conflict:
        if conflict.failed(review_store.REQUEST):
            return False
        raise
    return True


def list_contributors(caller: Caller, space_id: str, ref: str, *,
                      limit: int, page: str | None) -> Listing[ContributorView]:
    opened = open_change_request(caller, space_id, ref)
    scope = f"contributors:{space_id}:{opened.change_request.id}"
    contributors, last_key = review_store.contributors_page(space_id, opened.change_request.id, limit,
                                                             decode_cursor(scope, page))
    users = load_users((c.user_id for c in contributors), viewer=opened.access.member)
    cursor = encode_cursor(scope, last_key) if last_key else None
    # The change request's `contributors` set mirrors the contributor items (same transactions).
    return Listing(items=[ContributorView(c, users) for c in contributors], next_cursor=cursor,
                   count=len(opened.change_request.contributors))
