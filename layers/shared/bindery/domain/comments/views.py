"""Comments and replies as the caller sees them: bodies in the format asked for, users (one BatchGetItem
for a whole page: authors, reactors, repliers, resolvers), the caller's `permissions` on each."""

from __future__ import annotations

from typing import Any

from bindery.api.schemas.content import DocumentFormat
from bindery.api.wire.comments import comment_to_wire, named_users, reply_to_wire
from bindery.domain.comments import bodies
from bindery.domain.comments.targets import Target
from bindery.domain.people import users_by_id
from bindery.errors import NotFound
from bindery.store import comment_replies as reply_store
from bindery.store import comments as store
from bindery.store.comment_replies import Reply
from bindery.store.comments import Comment

NO_COMMENT = "No matching comment"
NO_REPLY = "No matching comment reply"


def comment_of(target: Target, comment_id: str) -> Comment:
    comment = store.get_comment(target.space.id, target.token, comment_id)
    if comment is None:
        raise NotFound(NO_COMMENT)
    return comment


def reply_of(target: Target, comment_id: str, reply_id: str) -> Reply:
    reply = reply_store.get_reply(target.space.id, target.token, comment_id, reply_id)
    if reply is None:
        raise NotFound(NO_REPLY)
    return reply


def comments_to_wire(target: Target, comments: list[Comment],
                     fmt: DocumentFormat | None) -> list[dict[str, Any]]:
    users = users_by_id(named_users(comments), hide_emails=target.hides_emails)
    return [comment_to_wire(comment, users, bodies.render(comment.body, comment.mentions, fmt),
                            target.permissions(comment), target.url(f"/comments/{comment.id}"))
            for comment in comments]


def comment_to_view(target: Target, comment: Comment, fmt: DocumentFormat | None = None) -> dict[str, Any]:
    return comments_to_wire(target, [comment], fmt)[0]


def replies_to_wire(target: Target, replies: list[Reply], fmt: DocumentFormat | None) -> list[dict[str, Any]]:
    users = users_by_id(named_users(replies), hide_emails=target.hides_emails)
    return [reply_to_wire(reply, users, bodies.render(reply.body, reply.mentions, fmt),
                          target.permissions(reply),
                          target.url(f"/comments/{reply.comment_id}/replies/{reply.id}"))
            for reply in replies]


def reply_to_view(target: Target, reply: Reply, fmt: DocumentFormat | None = None) -> dict[str, Any]:
    return replies_to_wire(target, [reply], fmt)[0]
