"""ChangeRequest and what hangs off it: reviews, requested reviewers, contributors, the answers of
update and merge, and Bindery's change list and PDF export."""

from __future__ import annotations

from typing import Literal

from bindery.api.wire.models.base import ListPage, Omitted, WireModel
from bindery.api.wire.models.comments import Comment, UserContributor
from bindery.api.wire.models.common import JSONObject, Location, Timestamp
from bindery.api.wire.models.users import User

ChangeRequestStatus = Literal["draft", "open", "archived", "merged"]


class ChangeRequestUrls(WireModel):
    app: str
    location: str


class ChangeRequest(WireModel):
    object: Literal["change-request"]
    id: str
    number: int
    status: ChangeRequestStatus
    subject: str
    description: Omitted[JSONObject] = None
    createdBy: User
    createdAt: Timestamp
    updatedAt: Timestamp
    space: str
    revision: str
    revisionInitial: str
    revisionMergedAncestor: Omitted[str] = None
    revisionMerged: Omitted[str] = None
    mergedAt: Omitted[Timestamp] = None
    mergedBy: Omitted[User] = None
    comments: int
    outdated: bool
    conversationsIssuesCluster: Omitted[str] = None
    urls: ChangeRequestUrls


class ChangeRequestList(ListPage):
    items: list[ChangeRequest]


class ChangeRequestReview(WireModel):
    object: Literal["change-request-review"]
    id: str
    revision: str
    reviewer: User
    requestedBy: Omitted[User] = None
    status: Literal["changes-requested", "approved"]
    outdated: bool
    comment: Omitted[Comment] = None
    createdAt: Timestamp
    updatedAt: Timestamp
    urls: Location


class ChangeRequestReviewList(ListPage):
    items: list[ChangeRequestReview]


class ChangeRequestRequestedReviewer(WireModel):
    """The spec's user kind (Bindery requests reviews from users, not teams)."""

    object: Literal["change-request-requested-reviewer"]
    revision: str
    requestedBy: User
    createdAt: Timestamp
    kind: Literal["user"]
    user: User


class ChangeRequestRequestedReviewerList(ListPage):
    items: list[ChangeRequestRequestedReviewer]


class RequestedReviewers(WireModel):
    """POST …/requested-reviewers: the reviewers the request added."""

    users: list[ChangeRequestRequestedReviewer]


class ChangeRequestUserContributor(UserContributor):
    actionType: Literal["edit", "comment"]


class ChangeRequestUserContributorList(ListPage):
    items: list[ChangeRequestUserContributor]


class ChangeRequestUpdated(WireModel):
    revision: str
    result: Literal["update", "conflicts"]


class ChangeRequestMerged(WireModel):
    revision: str
    result: Literal["merge", "conflicts"]


class MergeConflictItem(WireModel):
    """One conflict a merge of the change request would meet now (docs/merge.md)."""

    kind: Literal["page", "file", "reusable content", "variable", "Git Sync setting"]
    id: str
    title: str
    reason: str


class ChangeRequestChanges(WireModel):
    """GET …/changes (Bindery): the change request's `RevisionSemanticChange`s, how many more there are
    than the limit shows, and the conflicts a merge would meet now (empty when it would merge)."""

    changes: list[JSONObject]
    more: Omitted[int] = None
    conflicts: list[MergeConflictItem]


class ChangeRequestPdf(WireModel):
    url: str
