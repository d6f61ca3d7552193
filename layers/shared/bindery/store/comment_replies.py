"""Replies (keys.comments): one item per reply, in its space's partition right beside its comment's
other replies, so that a comment's replies are one Query (in id, that is time, order).

    {PK: SPACE#{spaceId}, SK: REPLY#{target}#{commentId}#{id}, type: "comment-reply", id, commentId,
     spaceId, changeRequest?, postedBy, postedAt, editedAt?, body (Markdown), mentions, reactions}

A reply's post and delete move its comment's `replies` and `replierCounts.{user}` (and the commenter
count) in the same transaction; see store.comments for the comment item.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from bindery.keys import Key
from bindery.keys import comments as comment_keys
from bindery.store import table
from bindery.store.comments import Change, Comment, Post, commenter_op
from bindery.store.table import Item

# A comment deleted with its replies is one transaction when it has at most this many replies: the
# comment, the target's counter, the replies and one commenter counter per author (<= replies + 1) fit
# in DynamoDB's 100 operations. More replies are deleted this many at a time first (see domain).
REPLIES_PER_TRANSACTION = 48


@dataclass
class Reply(Post):
    comment_id: str = ""

    @property
    def key(self) -> Key:
        return comment_keys.reply(self.space_id, self.target, self.comment_id, self.id)

    def to_item(self) -> Item:
        return {**self.key, "type": "comment-reply", "commentId": self.comment_id, **self.post_attributes()}

    @classmethod
    def from_item(cls, item: Item) -> Reply:
        return cls(**cls.post_values(item), comment_id=item["commentId"])


def get_reply(space_id: str, target: str, comment_id: str, reply_id: str) -> Reply | None:
    item = table.get(comment_keys.reply(space_id, target, comment_id, reply_id))
    return Reply.from_item(item) if item and item.get("type") == "comment-reply" else None


def replies_page(space_id: str, target: str, comment_id: str, limit: int,
                 start_key: dict[str, Any] | None) -> table.QueryPage:
    return table.Query(partition=comment_keys.partition(space_id),
                       prefix=comment_keys.reply_prefix(target, comment_id), limit=limit,
                       start_key=start_key).run()


def _replier_counts(change: Change, counts: Counter[str], at: str | None) -> None:
    """Move the comment's per-replier counts by `counts` (negative to take replies away)."""
    for user_id, delta in counts.items():
        path = change.path("replierCounts", user_id)
        change.sets.append(f"{path} = if_not_exists({path}, {change.value(0)}) + {change.value(delta)}")
        if at is not None:
            change.sets.append(f"{change.path('replierUpdated', user_id)} = {change.value(at)}")
    total = sum(counts.values())
    change.adds.append(f"{change.name('replies')} {change.value(total)}")


def post_reply_ops(reply: Reply) -> list[table.Op]:
    """The reply, its comment's counts (the comment must still exist) and the commenter count."""
    change = Change(comment_keys.comment(reply.space_id, reply.target, reply.comment_id))
    _replier_counts(change, Counter({reply.posted_by: 1}), reply.posted_at)
    return [table.put_op(reply.to_item(), "attribute_not_exists(PK)"), change.op(),
            commenter_op(reply.space_id, reply.target, reply.posted_by, 1, reply.posted_at)]


def delete_replies_ops(comment: Comment, replies: list[Reply]) -> list[table.Op]:
    """Delete `replies` (each must still exist) and take them out of their comment's counts and out of
    the commenter counts (at most 2 * len(replies) + 1 operations)."""
    counts = Counter(reply.posted_by for reply in replies)
    change = Change(comment.key)
    _replier_counts(change, Counter({user: -n for user, n in counts.items()}), None)
    ops = [table.delete_op(reply.key, "attribute_exists(PK)") for reply in replies]
    ops.append(change.op())
    ops += [commenter_op(comment.space_id, comment.target, user, -n, "") for user, n in counts.items()]
    return ops


def delete_comment_ops(comment: Comment, replies: list[Reply], target_counter: table.Op | None,
                       ) -> list[table.Op]:
    """Delete the comment as read (same status, same number of replies: `replies` are all of them) with
    its replies, the target's counter of its status (`target_counter`) and commenter counts."""
    ops = [table.delete_op(reply.key, "attribute_exists(PK)") for reply in replies]
    ops.append(table.delete_op(comment.key, "#st = :st AND replies = :n",
                               {":st": comment.status, ":n": comment.replies}, {"#st": "status"}))
    if target_counter is not None:
        ops.append(target_counter)
    counts = Counter(reply.posted_by for reply in replies)
    counts[comment.posted_by] += 1
    ops += [commenter_op(comment.space_id, comment.target, user, -n, "") for user, n in counts.items()]
    return ops
