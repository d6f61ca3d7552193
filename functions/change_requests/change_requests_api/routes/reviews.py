"""CR/reviews: submit a review, list them, read one; CR/requested-reviewers; CR/contributors."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from bindery.api.dependencies import page_limit
from bindery.api.responses.reviews import (
    ChangeRequestRequestedReviewer,
    ChangeRequestRequestedReviewerList,
    ChangeRequestReview,
    ChangeRequestReviewList,
    ChangeRequestUserContributor,
    ChangeRequestUserContributorList,
    RequestedReviewers,
)
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.reviews import contributor_to_wire, requested_reviewer_to_wire, review_to_wire
from bindery.domain.change_requests import requested_reviewers
from bindery.domain.change_requests import reviews as domain
from bindery.domain.change_requests.requested_reviewers import ContributorView, RequestView
from bindery.domain.change_requests.reviews import ReviewView
from bindery.requests.change_requests import RequestReviewers, SubmitReview
from bindery.requests.content import DocumentFormat

router = Router()
# The reference spec answers 205 when a request was removed and 204 when there was none.
REMOVED: dict[int, OpenAPIResponse] = {204: {"description": "There was no such review request"},
                                       205: {"description": "The review request was removed"}}


def _review(view: ReviewView) -> ChangeRequestReview:
    return review_to_wire(view.review, view.users, outdated=view.outdated, comment=view.comment)


def _request(view: RequestView) -> ChangeRequestRequestedReviewer:
    return requested_reviewer_to_wire(view.request, view.users)


def _contributor(view: ContributorView) -> ChangeRequestUserContributor:
    return contributor_to_wire(view.contributor, view.users)


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/reviews")
def list_reviews(
    spaceId: str, changeRequestId: str, who: Who, *,
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    outdated: Annotated[bool | None, Query()] = None,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> ChangeRequestReviewList:
    # `format` shapes a review's comment, which Bindery does not return (comments are their own area).
    found = domain.list_reviews(who, spaceId, changeRequestId, outdated=outdated, limit=page_limit(limit),
                                page=page)
    return list_page(ChangeRequestReviewList, found, _review)


@router.post("/spaces/<spaceId>/change-requests/<changeRequestId>/reviews",
             status_code=201, responses={201: {"description": "Review submitted"}})
def submit_review(
    spaceId: str, changeRequestId: str, who: Who,
    body: Annotated[SubmitReview, Body()],
) -> ChangeRequestReview:
    return _review(domain.submit_review(who, spaceId, changeRequestId, body))


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/reviews/<reviewId>")
def get_review(
    spaceId: str, changeRequestId: str, reviewId: str, who: Who,
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
) -> ChangeRequestReview:
    return _review(domain.get_review(who, spaceId, changeRequestId, reviewId))


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/requested-reviewers")
def list_requested_reviewers(
    spaceId: str, changeRequestId: str, who: Who,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> ChangeRequestRequestedReviewerList:
    found = requested_reviewers.list_requested_reviewers(who, spaceId, changeRequestId,
                                                         limit=page_limit(limit), page=page)
    return list_page(ChangeRequestRequestedReviewerList, found, _request)


@router.post("/spaces/<spaceId>/change-requests/<changeRequestId>/requested-reviewers")
def request_reviewers(
    spaceId: str, changeRequestId: str, who: Who,
    body: Annotated[RequestReviewers, Body()],
) -> RequestedReviewers:
    made = requested_reviewers.request_reviewers(who, spaceId, changeRequestId, body)
    return RequestedReviewers(users=[_request(view) for view in made])


@router.delete("/spaces/<spaceId>/change-requests/<changeRequestId>/requested-reviewers/<userId>",
               status_code=204, responses=REMOVED)
def remove_requested_reviewer(
    spaceId: str, changeRequestId: str, userId: str, who: Who,
) -> Response[str]:
    removed = requested_reviewers.remove_requested_reviewer(who, spaceId, changeRequestId, userId)
    return Response(status_code=205 if removed else 204, body="")


@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/contributors")
def list_contributors(
    spaceId: str, changeRequestId: str, who: Who,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> ChangeRequestUserContributorList:
    found = requested_reviewers.list_contributors(who, spaceId, changeRequestId, limit=page_limit(limit),
                                                  page=page)
    return list_page(ChangeRequestUserContributorList, found, _contributor)
