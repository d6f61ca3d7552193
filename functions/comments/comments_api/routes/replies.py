"""…/comments/{commentId}/replies: list, post, read, update and delete the replies to a comment, on a
space or a change request (the target comes from the path, see comments_api.target)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body, Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from bindery.api.dependencies import page_limit
from bindery.api.responses.comments import CommentReply, CommentReplyList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.comments import reply_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.comments import replies as domain
from bindery.domain.comments.targets import TargetRef
from bindery.requests.comments import PostReply, UpdateReply
from bindery.requests.content import DocumentFormat
from comments_api.target import comment_target

router = Router()
# API.md: 204 whether the reply went or there was none (the reference spec allows 205 for the first).
DELETED: dict[int, OpenAPIResponse] = {204: {"description": "Deleted, or there was no such reply"}}


@router.get("/spaces/<spaceId>/comments/<commentId>/replies")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>/replies")
def list_replies(
    commentId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)], *,
    page: PageCursor = None,
    limit: PageLimit = None,
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
) -> CommentReplyList:
    found = domain.list_replies(who, target, commentId, fmt=format, limit=page_limit(limit), cursor=page)
    return list_page(CommentReplyList, found, reply_to_wire)


@router.post("/spaces/<spaceId>/comments/<commentId>/replies")
@router.post("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>/replies")
def post_reply(
    commentId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)], body: Annotated[PostReply, Body()],
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the CR variant's parameter
) -> CommentReply:
    return reply_to_wire(domain.post_reply(who, target, commentId, body, format))


@router.get("/spaces/<spaceId>/comments/<commentId>/replies/<commentReplyId>")
@router.get("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>/replies/<commentReplyId>")
def get_reply(
    commentId: str, commentReplyId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)],
    format: Annotated[DocumentFormat | None, Query()] = None,  # noqa: A002 - the spec's name
) -> CommentReply:
    return reply_to_wire(domain.get_reply(who, target, commentId, commentReplyId, format))


@router.put("/spaces/<spaceId>/comments/<commentId>/replies/<commentReplyId>")
@router.put("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>/replies/<commentReplyId>")
def update_reply(
    commentId: str, commentReplyId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)], body: Annotated[UpdateReply, Body()],
) -> CommentReply:
    return reply_to_wire(domain.update_reply(who, target, commentId, commentReplyId, body))


@router.delete("/spaces/<spaceId>/comments/<commentId>/replies/<commentReplyId>",
               status_code=204, responses=DELETED)
@router.delete("/spaces/<spaceId>/change-requests/<changeRequestId>/comments/<commentId>/replies/<commentReplyId>",
               status_code=204, responses=DELETED)
def delete_reply(
    commentId: str, commentReplyId: str, who: Who,
    target: Annotated[TargetRef, Depends(comment_target)],
) -> Response[str]:
    domain.delete_reply(who, target, commentId, commentReplyId)
    return Response(status_code=204, body="")
