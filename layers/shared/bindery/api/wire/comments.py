"""Comment and comment-reply shapes (the reference spec's Comment and CommentReply)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bindery.api.wire.users import user_to_wire
from bindery.store.comment_replies import Reply
from bindery.store.comments import RESOLVED, Comment, Post, split_reaction_entry
from bindery.store.users import User

Wired = Mapping[str, dict[str, Any]]


def named_users(posts: Iterable[Post]) -> list[str]:
    """Every user the posts show: authors, reactors, repliers and resolvers."""
    ids: list[str] = []
    for post in posts:
        ids.append(post.posted_by)
        ids += [split_reaction_entry(entry)[0] for entry in post.reactions]
        if isinstance(post, Comment):
            ids += [user for user, count in post.replier_counts.items() if count > 0]
            if post.resolved_by:
                ids.append(post.resolved_by)
    return list(dict.fromkeys(ids))


def wired_users(user_ids: list[str], found: Mapping[str, User], *,
                hide_emails: bool) -> dict[str, dict[str, Any]]:
    """The users' wire shapes, from those the caller read (bindery.domain.people); one that no longer
    exists shows its id."""
    wired: dict[str, dict[str, Any]] = {}
    for user_id in user_ids:
        wire = user_to_wire(found.get(user_id) or User(id=user_id, display_name=user_id))
        if hide_emails:
            wire.pop("email", None)
        wired[user_id] = wire
    return wired


def reactions_to_wire(reactions: Mapping[str, str], users: Wired) -> list[dict[str, Any]]:
    """One entry per emoji (first reacted first), its users in the order they reacted."""
    by_emoji: dict[str, list[tuple[str, str]]] = {}
    for entry, reacted_at in sorted(reactions.items(), key=lambda pair: (pair[1], pair[0])):
        user_id, emoji = split_reaction_entry(entry)
        by_emoji.setdefault(emoji, []).append((reacted_at, user_id))
    return [{"emoji": emoji, "count": len(reacted),
             "users": [{"user": users[user_id], "reactedAt": at} for at, user_id in reacted]}
            for emoji, reacted in by_emoji.items()]


def _post_to_wire(post: Post, users: Wired, body: dict[str, Any], permissions: dict[str, bool],
                  location: str) -> dict[str, Any]:
    wire: dict[str, Any] = {"id": post.id, "postedBy": users[post.posted_by], "postedAt": post.posted_at,
                            "reactions": reactions_to_wire(post.reactions, users), "body": body,
                            "urls": {"location": location}, "permissions": permissions}
    if post.edited_at:
        wire["editedAt"] = post.edited_at
    return wire


def comment_to_wire(comment: Comment, users: Wired, body: dict[str, Any], permissions: dict[str, bool],
                    location: str) -> dict[str, Any]:
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
    wire = {"object": "comment", **_post_to_wire(comment, users, body, permissions, location),
            "replies": comment.replies, "target": target, "status": comment.status,
            "repliers": [{"user": users[user], "count": count, "updatedAt": at}
                         for at, user, count in repliers]}
    if comment.status == RESOLVED and comment.resolved_at and comment.resolved_by:
        wire["resolvedAt"] = comment.resolved_at
        wire["resolvedBy"] = users[comment.resolved_by]
    return wire


def reply_to_wire(reply: Reply, users: Wired, body: dict[str, Any], permissions: dict[str, bool],
                  location: str) -> dict[str, Any]:
    return {"object": "comment-reply", **_post_to_wire(reply, users, body, permissions, location)}
