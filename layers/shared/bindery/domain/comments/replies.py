"""Replies to a comment (docs/comments.md): list (oldest first), read, post, update (body, reactions and,
in a change request, `resolved`, which resolves or reopens the thread), delete.

A reply moves its comment's `replies` and `repliers` counts in the transaction that writes or deletes it,
and the comment must still exist for a reply to be posted.
"""

from __future__ import annotations

from bindery.domain.access.auth import Caller
from bindery.domain.comments import bodies, reactions
from bindery.domain.comments.targets import TargetRef, open_target
from bindery.domain.comments.threads import ATTEMPTS, BUSY, resolve_ops
from bindery.domain.comments.views import ReplyView, comment_of, reply_of, view_of, views_of
from bindery.platform import clock
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, decode_cursor, encode_cursor
from bindery.requests.comments import PostReply, UpdateReply
from bindery.requests.content import DocumentFormat
from bindery.store import Transaction, TransactionConflict
from bindery.store import comment_replies as store
from bindery.store import comments as comment_store
from bindery.store.comment_replies import Reply
from bindery.store.comments import Change


def list_replies(caller: Caller, ref: TargetRef, comment_id: str, *, fmt: DocumentFormat | None, limit: int,
                 cursor: str | None) -> Listing[ReplyView]:
    target = open_target(caller, ref)
    comment = comment_of(target, comment_id)  # an unknown comment is a 404, not an empty list
    scope = f"replies:{ref.space_id}:{target.token}:{comment_id}"
    found = store.replies_page(ref.space_id, target.token, comment_id, limit, decode_cursor(scope, cursor))
    replies = [Reply.from_item(item) for item in found.items]
    # The comment's `replies` counter moves in the transaction of every reply posted or deleted.
    return Listing(items=views_of(target, replies, fmt),
                   next_cursor=encode_cursor(scope, found.last_key) if found.last_key else None,
                   count=comment.replies)


def get_reply(caller: Caller, ref: TargetRef, comment_id: str, reply_id: str,
              fmt: DocumentFormat | None) -> ReplyView:
    target = open_target(caller, ref)
    return view_of(target, reply_of(target, comment_id, reply_id), fmt)


def post_reply(caller: Caller, ref: TargetRef, comment_id: str, body: PostReply,
               fmt: DocumentFormat | None = None) -> ReplyView:
    target = open_target(caller, ref)
    target.require_comment("reply to comments")
    comment_of(target, comment_id)
    prepared = bodies.prepare(target.space.org_id, body.body)
    reply = Reply(id=new_id(), space_id=target.space.id, change_request_id=target.change_request_id,
                  posted_by=caller.user_id, posted_at=clock.now_iso(), body=prepared.markdown,
                  mentions=prepared.mentions, comment_id=comment_id)
    try:
        Transaction(store.post_reply_ops(reply)).commit()
    except TransactionConflict as error:
        raise NotFound("No matching comment: it was deleted meanwhile") from error
    return view_of(target, reply, fmt)


def update_reply(caller: Caller, ref: TargetRef, comment_id: str, reply_id: str,
                 body: UpdateReply) -> ReplyView:
    target = open_target(caller, ref)
    if body.resolved is not None and target.change_request is None:
        raise BadRequest("resolved: replies in a space cannot resolve their comment; update the comment")
    new_body = reactions.prepared_body(target, body.body)
    for _ in range(ATTEMPTS):
        reply = reply_of(target, comment_id, reply_id)
        now = clock.now_iso()
        change = Change(reply.key)
        reactions.apply(target, reply, change, body=new_body, has_body=body.body is not None,
                        added=body.addedReactions or [], removed=body.removedReactions or [], at=now,
                        what="reply")
        ops = [change.op()] if not change.empty else []
        if body.resolved is not None:
            comment = comment_of(target, comment_id)
            thread = Change(comment.key)
            ops += resolve_ops(target, comment, thread, body.resolved, now)
            if not thread.empty:
                ops.append(thread.op())
        if not ops:
            return view_of(target, reply)
        try:
            Transaction(ops).commit()
        except TransactionConflict:
            continue
        return view_of(target, reply_of(target, comment_id, reply_id))
    raise Conflict(BUSY)


def delete_reply(caller: Caller, ref: TargetRef, comment_id: str, reply_id: str) -> bool:
    """False when there was no such reply."""
    target = open_target(caller, ref)
    for _ in range(ATTEMPTS):
        reply = store.get_reply(target.space.id, target.token, comment_id, reply_id)
        if reply is None:
            return False
        target.require_change(reply, "delete this reply")
        comment = comment_of(target, comment_id)
        try:
            Transaction(store.delete_replies_ops(comment, [reply])).commit()
        except TransactionConflict:
            continue  # deleted meanwhile (with its comment, or by someone else): see what is left
        comment_store.forget_commenters(target.space.id, target.token, [reply.posted_by])
        return True
    raise Conflict(BUSY)
