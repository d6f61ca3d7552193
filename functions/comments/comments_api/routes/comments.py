"""…/comments: list, post, read, update (body, reactions, resolve) and delete comments, on a space or a
change request (the target comes from the path, see comments_api.target)."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body, Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from bindery.api.dependencies import page_limit
from bindery.api.responses.comments import Comment, CommentList
from bindery.api.route_params import IdsFilter, PageCursor, PageLimit, Who
from bindery.api.wire.comments import comment_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.comments import threads as domain
from bindery.domain.comments.targets import TargetRef
from bindery.requests.comments import CommentStatus, PostComment, UpdateComment
from bindery.requests.content import DocumentFormat
from comments_api.target import comment_target

router = Router()
# API.md: 204 whether the comment (and its replies) went or there was none (the reference spec also
# allows 205 for the first).
DELETED: dict[int, OpenAPIResponse] = {204: {"description": "Deleted, or there was no such comment"}}


@router.get("/spaces/<spaceId>/comments")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/comments")
def list_comments(
    who: Who, target: Annotated[TargetRef, Depends(comment_target)], *,
    page: PageCursor = None,
    limit: PageLimit = None,
    order: Annotated[Literal["asc", "desc"], Query()] = "desc",
    status: Annotated[CommentStatus, Query()] = "all",
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
    targetPage: Annotated[str | None, Query(max_length=128)] = None,
    authors: IdsFilter = None,
) -> CommentList:
    found = domain.list_comments(who, target, order=order, status=status, page=targetPage,
                                 authors=authors or [], fmt=format, limit=page_limit(limit), cursor=page)
    return list_page(CommentList, found, comment_to_wire)


@router.post("/spaces/<spaceId>/comments")
@router.post("/spaces/<spaceId>/change-requests/<changeRequestId>/comments")
def post_comment(
    who: Who, target: Annotated[TargetRef, Depends(comment_target)],
    body: Annotated[PostComment, Body()],
) -> Comment:
    return comment_to_wire(domain.post_comment(who, target, body))


@router.get("/spaces/<spaceId>/comments/<commentId>")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>")
def get_comment(
    commentId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)],
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
) -> Comment:
    return comment_to_wire(domain.get_comment(who, target, commentId, format))


@router.put("/spaces/<spaceId>/comments/<commentId>")
@router.put("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>")
def update_comment(
    commentId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)], body: Annotated[UpdateComment, Body()],
) -> Comment:
    return comment_to_wire(domain.update_comment(who, target, commentId, body))


@router.delete("/spaces/<spaceId>/comments/<commentId>", status_code=204, responses=DELETED)
@router.delete("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>",
               status_code=204, responses=DELETED)
def delete_comment(
    commentId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)],
) -> Response[str]:
    domain.delete_comment(who, target, commentId)
    return Response(status_code=204, body="")
