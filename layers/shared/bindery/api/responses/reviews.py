"""What hangs off a change request besides its content: reviews (with their comment), requested reviewers
and contributors."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.comments import Comment, UserContributor
from bindery.api.responses.common import Location, Timestamp
from bindery.api.responses.users import User


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
