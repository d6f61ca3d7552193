"""Comments and replies as the caller sees them, for bindery.api.wire.comments to shape: the body as a
document when that format is asked for, the users the posts name (one BatchGetItem for a whole page:
authors, reactors, repliers, resolvers) and what the caller may do with each."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bindery.domain.comments import bodies
from bindery.domain.comments.comment_users import named_users
from bindery.domain.comments.targets import Target
from bindery.domain.people import load_users
from bindery.platform.errors import NotFound
from bindery.requests.content import DocumentFormat
from bindery.store import comment_replies as reply_store
from bindery.store import comments as store
from bindery.store.comment_replies import Reply
from bindery.store.comments import Comment, Post
from bindery.store.users import User

NO_COMMENT = "No matching comment"
NO_REPLY = "No matching comment reply"

PostT = TypeVar("PostT", bound=Post)


@dataclass(frozen=True)
class PostView(Generic[PostT]):
    """A comment or a reply, with what its caller may see and do."""

    post: PostT
    # The users the page's posts name, as read: one that no longer exists is absent (wire shows its id).
    users: Mapping[str, User]
    # The body as a JSON document (mentions resolved) when the caller asked for `format=document`.
    document: dict[str, Any] | None
    can_change: bool  # edit and delete: its author (with the comment role) or an admin of the space
    can_reply: bool
    hide_emails: bool  # guests see users without their email, as everywhere else


CommentView = PostView[Comment]
ReplyView = PostView[Reply]


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


def views_of(target: Target, posts: list[PostT], fmt: DocumentFormat | None = None) -> list[PostView[PostT]]:
    """The posts of one page as the caller sees them (one read of the users they all name)."""
    users = load_users(named_users(posts), viewer=target.access.member)
    return [PostView(post=post, users=users,
                     document=bodies.to_document(post.body, post.mentions) if fmt == "document" else None,
                     can_change=target.can_change(post), can_reply=target.can_comment,
                     hide_emails=target.hides_emails)
            for post in posts]


def view_of(target: Target, post: PostT, fmt: DocumentFormat | None = None) -> PostView[PostT]:
    return views_of(target, [post], fmt)[0]
