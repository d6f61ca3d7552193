"""Comment and CommentReply (a comment's `status` decides whether it carries `resolvedAt`/`resolvedBy`)."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import JSONObject, Location, Timestamp
from bindery.api.responses.users import User


class ReactionUser(WireModel):
    user: User
    reactedAt: Timestamp


class EmojiReaction(WireModel):
    emoji: str
    count: int
    users: list[ReactionUser]


class UserContributor(WireModel):
    updatedAt: Timestamp
    count: int
    user: User


class CommentPermissions(WireModel):
    view: bool
    edit: bool
    reply: Omitted[bool] = None
    delete: bool


class IdRef(WireModel):
    id: str


class CommentTarget(WireModel):
    node: Omitted[IdRef] = None
    tableCell: Omitted[JSONObject] = None
    changeRequest: Omitted[str] = None
    review: Omitted[str] = None
    page: Omitted[IdRef] = None
    space: str
    revision: str


class Comment(WireModel):
    object: Literal["comment"]
    id: str
    postedBy: User
    postedAt: Timestamp
    editedAt: Omitted[Timestamp] = None
    reactions: list[EmojiReaction]
    replies: int
    repliers: list[UserContributor]
    body: JSONObject
    target: CommentTarget
    urls: Location
    permissions: CommentPermissions
    status: Literal["open", "resolved"]
    resolvedAt: Omitted[Timestamp] = None
    resolvedBy: Omitted[User] = None


class CommentList(ListPage):
    items: list[Comment]


class CommentReply(WireModel):
    object: Literal["comment-reply"]
    id: str
    postedBy: User
    postedAt: Timestamp
    editedAt: Omitted[Timestamp] = None
    reactions: list[EmojiReaction]
    body: JSONObject
    urls: Location
    permissions: CommentPermissions


class CommentReplyList(ListPage):
    items: list[CommentReply]
