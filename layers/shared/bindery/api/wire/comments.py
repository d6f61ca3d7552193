"""Comment, comment-reply and commenter shapes (the reference spec's Comment, CommentReply and the
OrganizationMember of a commenter listing).

The domain gives a post as its caller sees it (bindery.domain.comments.views.PostView); wire imports no
domain, so it takes that view by its shape (`Shown`). Users come as the domain read them: one that no
longer exists is shown with its id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from bindery.api.responses.comments import Comment, CommentReply
from bindery.api.responses.users import OrganizationMember
from bindery.api.wire.urls import api_url
from bindery.api.wire.users import member_fields, user_fields
from bindery.domain.comments.comment_users import named_users
from bindery.store.comment_replies import Reply as StoredReply
from bindery.store.comments import RESOLVED, Post, split_reaction_entry
from bindery.store.comments import Comment as StoredComment
from bindery.store.members import Member
from bindery.store.users import User

__all__ = ["Shown", "comment_to_wire", "commenter_to_wire", "named_users", "reactions_fields",
           "reply_to_wire", "wired_users"]

Wired = Mapping[str, dict[str, Any]]
PostT_co = TypeVar("PostT_co", bound=Post, covariant=True)


class Shown(Protocol[PostT_co]):
    """A post as its caller sees it: what bindery.domain.comments.views.PostView holds."""

    @property
    def post(self) -> PostT_co: ...
    @property
    def users(self) -> Mapping[str, User]: ...
    @property
    def document(self) -> dict[str, Any] | None: ...
    @property
    def can_change(self) -> bool: ...
    @property
    def can_reply(self) -> bool: ...
    @property
    def hide_emails(self) -> bool: ...


def wired_users(user_ids: list[str], found: Mapping[str, User], *,
                hide_emails: bool) -> dict[str, dict[str, Any]]:
    """The users' wire shapes, from those the caller read (bindery.domain.people); one that no longer
    exists shows its id."""
    wired: dict[str, dict[str, Any]] = {}
    for user_id in user_ids:
        wire = user_fields(found.get(user_id) or User(id=user_id, display_name=user_id))
        if hide_emails:
            wire.pop("email", None)
        wired[user_id] = wire
    return wired


def reactions_fields(reactions: Mapping[str, str], users: Wired) -> list[dict[str, Any]]:
    """One entry per emoji (first reacted first), its users in the order they reacted."""
    by_emoji: dict[str, list[tuple[str, str]]] = {}
    for entry, reacted_at in sorted(reactions.items(), key=lambda pair: (pair[1], pair[0])):
        user_id, emoji = split_reaction_entry(entry)
        by_emoji.setdefault(emoji, []).append((reacted_at, user_id))
    return [{"emoji": emoji, "count": len(reacted),
             "users": [{"user": users[user_id], "reactedAt": at} for at, user_id in reacted]}
            for emoji, reacted in by_emoji.items()]


def _target_path(post: Post) -> str:
    base = f"/spaces/{post.space_id}"
    return f"{base}/change-requests/{post.change_request_id}" if post.change_request_id else base


def _post_fields(view: Shown[Post], users: Wired, location: str) -> dict[str, Any]:
    post = view.post
    body = {"document": view.document} if view.document is not None else {"markdown": post.body}
    permissions = {"view": True, "edit": view.can_change, "reply": view.can_reply, "delete": view.can_change}
    wire: dict[str, Any] = {"id": post.id, "postedBy": users[post.posted_by], "postedAt": post.posted_at,
                            "reactions": reactions_fields(post.reactions, users), "body": body,
                            "urls": {"location": api_url(location)}, "permissions": permissions}
    if post.edited_at:
        wire["editedAt"] = post.edited_at
    return wire


def _users(view: Shown[Post]) -> Wired:
    return wired_users(named_users([view.post]), view.users, hide_emails=view.hide_emails)


def comment_to_wire(view: Shown[StoredComment]) -> Comment:
    comment, users = view.post, _users(view)
    target: dict[str, Any] = {"space": comment.space_id, "revision": comment.revision}
    if comment.change_request_id:
        target["changeRequest"] = comment.change_request_id
    if comment.page:
        target["page"] = {"id": comment.page}
    if comment.node:
        target["node"] = {"id": comment.node}
    if comment.table_cell:
        target["tableCell"] = dict(comment.table_cell)
    repliers = sorted(((comment.replier_updated.get(user, comment.posted_at), user, count)
                       for user, count in comment.replier_counts.items() if count > 0), reverse=True)
    location = f"{_target_path(comment)}/comments/{comment.id}"
    wire = {"object": "comment", **_post_fields(view, users, location),
            "replies": comment.replies, "target": target, "status": comment.status,
            "repliers": [{"user": users[user], "count": count, "updatedAt": at}
                         for at, user, count in repliers]}
    if comment.status == RESOLVED and comment.resolved_at and comment.resolved_by:
        wire["resolvedAt"] = comment.resolved_at
        wire["resolvedBy"] = users[comment.resolved_by]
    return Comment.model_validate(wire)


def reply_to_wire(view: Shown[StoredReply]) -> CommentReply:
    reply = view.post
    location = f"{_target_path(reply)}/comments/{reply.comment_id}/replies/{reply.id}"
    return CommentReply.model_validate({"object": "comment-reply",
                                        **_post_fields(view, _users(view), location)})


def commenter_to_wire(member: Member, *, hide_email: bool) -> OrganizationMember:
    wire = member_fields(member)
    if hide_email:
        wire["user"].pop("email", None)
    return OrganizationMember.model_validate(wire)
