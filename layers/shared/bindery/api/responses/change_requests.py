"""ChangeRequest, the answers of update and merge, and Bindery's change list and PDF export. Reviews,
requested reviewers and contributors are in models.reviews: a revision shows its change request
(`mergedFrom`) without importing the comment models a review holds."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import JSONObject, Timestamp
from bindery.api.responses.users import User

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
