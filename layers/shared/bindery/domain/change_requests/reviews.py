"""Reviews of a change request: submit (approve or request changes), list, read one.

Submitting needs the `review` role on the space and a draft or open change request. One transaction
writes the review, fulfils the caller's pending review request (the request item goes, the review keeps
who requested it) and records the review as the reviewer's latest on the change request
(`latestReviews`): a reviewer's earlier reviews, and all of them once a review is requested from them
again, are `outdated`. Merge rules read approvals from `latestReviews` (no Query at merge time).

A review's `comment` is a comment on the change request, posted by the reviewer in the same transaction
(it counts among the change request's comments, lists with them, takes replies and reactions, and can be
resolved or deleted like any other); the review names it and embeds it as the spec's `Comment` when read
(one BatchGetItem for the comments of a page of reviews, one for the users they name).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bindery.domain.access.auth import Caller
from bindery.domain.change_requests.records import Opened, open_change_request
from bindery.domain.change_requests.status import EDITABLE
from bindery.domain.people import load_users
from bindery.platform.clock import now_iso
from bindery.platform.errors import Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import MAX_LIMIT, Listing, carried_count, next_page, open_page
from bindery.requests.change_requests import SubmitReview
from bindery.store import Transaction, TransactionConflict
from bindery.store import change_requests as cr_store
from bindery.store import reviews as review_store
from bindery.store.change_requests import ChangeRequest
from bindery.store.reviews import Review
from bindery.store.users import User

if TYPE_CHECKING:
    from bindery.domain.comments.targets import Target
    from bindery.domain.comments.views import CommentView

NO_REVIEW = "No matching review"


@dataclass(frozen=True)
class ReviewView:
    """A review as its answers show it (bindery.api.wire.change_requests shapes it): the users it names,
    whether it is outdated, and its comment as the comments area shows it to the caller
    (domain.comments.views; None without one, or once the comment is deleted)."""

    review: Review
    users: Mapping[str, User]
    outdated: bool
    comment: CommentView | None = None


def _outdated(change_request: ChangeRequest, review: Review) -> bool:
    latest = change_request.latest_reviews.get(review.reviewer_id) or {}
    return latest.get("id") != review.id


def _newer_review_landed(review: Review) -> bool:
    """Whether the change request, still open for reviews, names a newer review of the same reviewer."""
    fresh = cr_store.get_change_request(review.space_id, review.change_request_id)
    if fresh is None or fresh.status not in EDITABLE:
        return False
    latest = fresh.latest_reviews.get(review.reviewer_id) or {}
    return str(latest.get("id", "")) > review.id


# A review's comment is the comments area's (domain.comments): only reviews with one need its modules,
# imported on first need (and before a SnapStart snapshot: change_requests_api.app).
def _target(caller: Caller, opened: Opened) -> Target:
    from bindery.domain.comments.targets import Target

    return Target(access=opened.access, space=opened.space, change_request=opened.change_request,
                  user_id=caller.user_id)


def _comments(caller: Caller, opened: Opened, reviews: list[Review]) -> dict[str, CommentView]:
    """The comments the reviews name, as the caller sees them, by id (deleted ones are left out)."""
    wanted = [review.comment_id for review in reviews if review.comment_id]
    if not wanted:
        return {}
    from bindery.domain.comments.views import views_of
    from bindery.store import comments as comment_store
    from bindery.store.comments import Comment

    target = _target(caller, opened)
    items = comment_store.comment_items(target.space.id, target.token, wanted)
    comments = [Comment.from_item(item) for item in items if item.get("type") == "comment"]
    return {view.post.id: view for view in views_of(target, comments)}


def submit_review(caller: Caller, space_id: str, ref: str, body: SubmitReview) -> ReviewView:
    opened = open_change_request(caller, space_id, ref, "review", "review change requests")
    change_request = opened.change_request
    if change_request.status not in EDITABLE:
        raise Conflict(f"This change request is {change_request.status}: it can no longer be reviewed")
    pending = review_store.get_requested_reviewer(space_id, change_request.id, caller.user_id)
    now = now_iso()
    comment = None
    if body.comment is not None:
        from bindery.domain.comments import bodies
        from bindery.store import comments as comment_store
        from bindery.store.comments import Comment

        target = _target(caller, opened)
        prepared = bodies.prepare(opened.space.org_id, body.comment, "comment")
        comment = Comment(id=new_id(), space_id=space_id, change_request_id=change_request.id,
                          posted_by=caller.user_id, posted_at=now, body=prepared.markdown,
                          mentions=prepared.mentions, revision=change_request.revision)
    review = Review(id=new_id(), space_id=space_id, change_request_id=change_request.id,
                    reviewer_id=caller.user_id, status=body.status, revision=change_request.revision,
                    created_at=now, updated_at=now,
                    requested_by=pending["requestedBy"] if pending else None,
                    comment_id=comment.id if comment else None)
    ops = [review_store.put_review_op(review)]
    if comment is not None:
        ops += [comment_store.post_comment_op(comment),
                comment_store.commenter_op(space_id, target.token, caller.user_id, 1, now)]
    if pending:
        ops.append(review_store.delete_requested_reviewer_op(space_id, change_request.id, caller.user_id,
                                                             must_exist=False))
    try:
        Transaction(ops, review_store.record_review_op(review)).commit()
    except TransactionConflict as error:
        if not (error.failed(review_store.RECORD) and _newer_review_landed(review)):
            raise Conflict("The change request was merged or archived meanwhile: the review was not "
                           "recorded") from None
        # Submitted at the same time as a newer review of the same reviewer, which landed first.
        try:
            Transaction(ops, review_store.record_review_op(review, as_latest=False)).commit()
        except TransactionConflict:
            raise Conflict("The change request was merged or archived meanwhile: the review was not "
                           "recorded") from None
    users = load_users([review.reviewer_id, review.requested_by], viewer=opened.access.member)
    if comment is None:
        return ReviewView(review, users, outdated=False)
    from bindery.domain.comments.views import views_of

    return ReviewView(review, users, outdated=False, comment=views_of(target, [comment])[0])


def list_reviews(caller: Caller, space_id: str, ref: str, *, outdated: bool | None, limit: int,
                 page: str | None) -> Listing[ReviewView]:
    """Newest first, one Query; `outdated` narrows the page after it is read (a page may be short)."""
    opened = open_change_request(caller, space_id, ref)
    change_request = opened.change_request
    scope = f"reviews:{space_id}:{change_request.id}:{outdated}"
    start = open_page(scope, page)

    def read(start_key: dict[str, Any] | None, size: int
             ) -> tuple[list[tuple[Review, bool]], dict[str, Any] | None]:
        result = review_store.reviews_page(space_id, change_request.id, size, start_key)
        flagged = [(review, _outdated(change_request, review))
                   for review in (Review.from_item(item) for item in result.items)]
        if outdated is not None:
            flagged = [(review, flag) for review, flag in flagged if flag == outdated]
        return flagged, result.last_key

    flagged, last_key = read(start.start, limit)
    users = load_users((uid for review, _ in flagged for uid in (review.reviewer_id, review.requested_by)),
                       viewer=opened.access.member)
    comments = _comments(caller, opened, [review for review, _ in flagged])
    items = [ReviewView(review, users, outdated=flag, comment=comments.get(review.comment_id or ""))
             for review, flag in flagged]
    if outdated is None:
        # The change request's `reviews` counter.
        return Listing(items, next_page(scope, last_key), change_request.reviews)

    # `outdated` is decided per review against the change request as read, which no Query filter (and
    # so no `Select=COUNT`) can express: the first page counts with a pass over the rest of the reviews,
    # and its cursor carries the count.
    def kept(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        more, more_last = read(start_key, MAX_LIMIT)
        return len(more), more_last

    count = carried_count(start, (len(items), last_key), kept)
    return Listing(items, next_page(scope, last_key, count), count)


def get_review(caller: Caller, space_id: str, ref: str, review_id: str) -> ReviewView:
    opened = open_change_request(caller, space_id, ref)
    review = review_store.get_review(space_id, opened.change_request.id, review_id)
    if review is None:
        raise NotFound(NO_REVIEW)
    users = load_users([review.reviewer_id, review.requested_by], viewer=opened.access.member)
    comment = _comments(caller, opened, [review]).get(review.comment_id or "")
    return ReviewView(review, users, outdated=_outdated(opened.change_request, review), comment=comment)


def approvals(change_request: ChangeRequest) -> set[str]:
    """Who approved the change request in their latest review."""
    return {user_id for user_id, latest in change_request.latest_reviews.items()
            if latest.get("status") == "approved"}
