"""Change request, review, requested reviewer and contributor shapes (the reference spec's
`ChangeRequest`, `ChangeRequestReview`, `ChangeRequestRequestedReviewer`, `ChangeRequestUserContributor`),
the answers of update and merge, and Bindery's change list and PDF export.

Users are looked up by the domain (bindery.domain.people: one BatchGetItem per page) and passed in by
id; a user who no longer exists is shown as an unnamed user with their id, never dropped (the change
request's history stays). Nothing here reads the store: a changed file's `downloadURL` is presigned, as
wire.content does for files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from bindery.api.wire.comments import Shown, comment_to_wire
from bindery.api.wire.content import layout
from bindery.api.wire.models.change_requests import (
    ChangeRequest,
    ChangeRequestChanges,
    ChangeRequestMerged,
    ChangeRequestPdf,
    ChangeRequestRequestedReviewer,
    ChangeRequestReview,
    ChangeRequestUpdated,
    ChangeRequestUserContributor,
)
from bindery.api.wire.urls import api_url, app_url
from bindery.api.wire.users import user_fields
from bindery.engines.content.changes import Change
from bindery.engines.content.merge.trees import PageConflict
from bindery.store import blobs
from bindery.store.change_requests import ChangeRequest as StoredChangeRequest
from bindery.store.comments import Comment as StoredComment
from bindery.store.reviews import Contributor, RequestedReviewer, Review
from bindery.store.users import User

Users = Mapping[str, User]


class ChangeRequestShown(Protocol):
    """A change request with the users it names and whether its base is outdated: what
    bindery.domain.change_requests.records.ChangeRequestView holds."""

    @property
    def change_request(self) -> StoredChangeRequest: ...
    @property
    def users(self) -> Users: ...
    @property
    def outdated(self) -> bool: ...


def user_ref(users: Users, user_id: str) -> dict[str, Any]:
    user = users.get(user_id)
    if user is None:
        return {"object": "user", "id": user_id, "displayName": "",
                "urls": {"location": api_url(f"/users/{user_id}")}}
    return user_fields(user)


def change_request_location(change_request: StoredChangeRequest) -> str:
    return api_url(f"/spaces/{change_request.space_id}/change-requests/{change_request.id}")


def change_request_body(change_request: StoredChangeRequest, users: Users, *,
                        outdated: bool) -> dict[str, Any]:
    """The change request as a JSON object, for the answers that embed one in a larger body (a merge
    revision's `mergedFrom`, a link's `versionContext`, a content batch's `changeRequest`)."""
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


def change_request_to_wire(view: ChangeRequestShown) -> ChangeRequest:
    return ChangeRequest.model_validate(change_request_body(view.change_request, view.users,
                                                            outdated=view.outdated))


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


def updated_to_wire(revision: str, result: str) -> ChangeRequestUpdated:
    return ChangeRequestUpdated.model_validate({"revision": revision, "result": result})


def merged_to_wire(revision: str, result: str) -> ChangeRequestMerged:
    return ChangeRequestMerged.model_validate({"revision": revision, "result": result})


def changes_to_wire(space_id: str, changes: Iterable[Change], *, more: int,
                    conflicts: Iterable[PageConflict]) -> ChangeRequestChanges:
    """GET CR/changes: the changes shown, how many more there are, what a merge would meet now."""

    def file_url(entry: Mapping[str, Any]) -> str:
        return blobs.file_url(space_id, entry["digest"], name=entry["name"],
                              content_type=entry["contentType"])

    out: dict[str, Any] = {"changes": [change.to_wire(file_url, layout) for change in changes]}
    if more:
        out["more"] = more
    out["conflicts"] = [{"kind": c.kind, "id": c.page_id, "title": c.title, "reason": c.reason}
                        for c in conflicts]
    return ChangeRequestChanges.model_validate(out)


def pdf_to_wire(url: str) -> ChangeRequestPdf:
    return ChangeRequestPdf(url=url)
