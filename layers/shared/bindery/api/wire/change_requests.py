"""Change request, review, requested reviewer and contributor shapes (the reference spec's
`ChangeRequest`, `ChangeRequestReview`, `ChangeRequestRequestedReviewer`, `ChangeRequestUserContributor`).

Users are looked up by the caller (bindery.domain.people: one BatchGetItem per page) and passed in by
id; a user who no longer exists is shown as an unnamed user with their id, never dropped (the change
request's history stays).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bindery.api.wire.urls import api_url, app_url
from bindery.api.wire.users import user_to_wire
from bindery.store.change_requests import ChangeRequest
from bindery.store.reviews import Contributor, RequestedReviewer, Review
from bindery.store.users import User

Users = Mapping[str, User]


def user_ref(users: Users, user_id: str) -> dict[str, Any]:
    user = users.get(user_id)
    if user is None:
        return {"object": "user", "id": user_id, "displayName": "",
                "urls": {"location": api_url(f"/users/{user_id}")}}
    return user_to_wire(user)


def change_request_users(change_request: ChangeRequest) -> list[str | None]:
    return [change_request.created_by, change_request.merged_by]


def change_request_location(change_request: ChangeRequest) -> str:
    return api_url(f"/spaces/{change_request.space_id}/change-requests/{change_request.id}")


def change_request_to_wire(change_request: ChangeRequest, users: Users, *, outdated: bool) -> dict[str, Any]:
    cr = change_request
    out: dict[str, Any] = {
        "object": "change-request", "id": cr.id, "number": cr.number, "status": cr.status,
        "subject": cr.subject, "createdBy": user_ref(users, cr.created_by), "createdAt": cr.created_at,
        "updatedAt": cr.updated_at, "space": cr.space_id, "revision": cr.revision,
        "revisionInitial": cr.revision_initial, "comments": cr.comments, "outdated": outdated,
        "urls": {"app": app_url(f"/s/{cr.space_id}/~/changes/{cr.number}/"),
                 "location": change_request_location(cr)},
    }
    optional = {"description": cr.description, "revisionMergedAncestor": cr.revision_merged_ancestor,
                "revisionMerged": cr.revision_merged, "mergedAt": cr.merged_at,
                "conversationsIssuesCluster": cr.conversations_issues_cluster}
    out.update({name: value for name, value in optional.items() if value is not None})
    if cr.merged_by:
        out["mergedBy"] = user_ref(users, cr.merged_by)
    return out


def review_to_wire(review: Review, users: Users, *, outdated: bool,
                   comment: dict[str, Any] | None = None) -> dict[str, Any]:
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
        out["comment"] = comment
    return out


def requested_reviewer_to_wire(request: RequestedReviewer, users: Users) -> dict[str, Any]:
    return {"object": "change-request-requested-reviewer", "revision": request.revision,
            "requestedBy": user_ref(users, request.requested_by), "createdAt": request.created_at,
            "kind": "user", "user": user_ref(users, request.user_id)}


def contributor_to_wire(contributor: Contributor, users: Users) -> dict[str, Any]:
    return {"updatedAt": contributor.updated_at, "count": contributor.count,
            "user": user_ref(users, contributor.user_id), "actionType": "edit"}
