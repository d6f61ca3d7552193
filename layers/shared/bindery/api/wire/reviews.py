"""Review, requested reviewer and contributor shapes of a change request (the reference spec's
`ChangeRequestReview`, `ChangeRequestRequestedReviewer`, `ChangeRequestUserContributor`). Users are passed
in by id as for the change request itself (wire.change_requests.user_ref)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bindery.api.responses.reviews import (
    ChangeRequestRequestedReviewer,
    ChangeRequestReview,
    ChangeRequestUserContributor,
)
from bindery.api.wire.change_requests import Users, user_ref
from bindery.api.wire.urls import api_url
from bindery.store.reviews import Contributor, RequestedReviewer, Review

if TYPE_CHECKING:
    from bindery.api.wire.comments import Shown
    from bindery.store.comments import Comment as StoredComment


def review_to_wire(review: Review, users: Users, *, outdated: bool,
                   comment: Shown[StoredComment] | None = None) -> ChangeRequestReview:
    """`comment`: the review's comment as the comments area shows it to the caller."""
    out: dict[str, Any] = {
        "object": "change-request-review", "id": review.id, "revision": review.revision,
        "reviewer": user_ref(users, review.reviewer_id), "status": review.status, "outdated": outdated,
        "createdAt": review.created_at, "updatedAt": review.updated_at,
        "urls": {"location": api_url(f"/spaces/{review.space_id}/change-requests/"
                                     f"{review.change_request_id}/reviews/{review.id}")},
    }
    if review.requested_by:
        out["requestedBy"] = user_ref(users, review.requested_by)
    if comment is not None:
        # Only a review with a comment needs the comments' shapes: imported on first need (and before a
        # SnapStart snapshot: change_requests_api.app).
        from bindery.api.wire.comments import comment_to_wire

        out["comment"] = comment_to_wire(comment)
    return ChangeRequestReview.model_validate(out)


def requested_reviewer_to_wire(request: RequestedReviewer, users: Users) -> ChangeRequestRequestedReviewer:
    return ChangeRequestRequestedReviewer.model_validate({
        "object": "change-request-requested-reviewer", "revision": request.revision,
        "requestedBy": user_ref(users, request.requested_by), "createdAt": request.created_at,
        "kind": "user", "user": user_ref(users, request.user_id)})


def contributor_to_wire(contributor: Contributor, users: Users) -> ChangeRequestUserContributor:
    return ChangeRequestUserContributor.model_validate({
        "updatedAt": contributor.updated_at, "count": contributor.count,
        "user": user_ref(users, contributor.user_id), "actionType": "edit"})
