"""The change request shape (the reference spec's `ChangeRequest`), the answers of update and merge, and
Bindery's PDF export. Reviews, requested reviewers and contributors are in wire.reviews, the change list
in wire.change_request_changes: a content read that shows a change request (a revision's `mergedFrom`)
imports none of them (bench/README.md, "Cold start").

Users are looked up by the domain (bindery.domain.people: one BatchGetItem per page) and passed in by
id; a user who no longer exists is shown as an unnamed user with their id, never dropped (the change
request's history stays). Nothing here reads the store: a changed file's `downloadURL` is presigned, as
wire.content does for files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bindery.api.responses.change_requests import (
    ChangeRequest,
    ChangeRequestMerged,
    ChangeRequestPdf,
    ChangeRequestUpdated,
)
from bindery.api.wire.urls import api_url, app_url
from bindery.api.wire.users import user_fields
from bindery.store.change_requests import ChangeRequest as StoredChangeRequest
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


def updated_to_wire(revision: str, result: str) -> ChangeRequestUpdated:
    return ChangeRequestUpdated.model_validate({"revision": revision, "result": result})


def merged_to_wire(revision: str, result: str) -> ChangeRequestMerged:
    return ChangeRequestMerged.model_validate({"revision": revision, "result": result})


def pdf_to_wire(url: str) -> ChangeRequestPdf:
    return ChangeRequestPdf(url=url)
