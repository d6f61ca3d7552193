"""Comments on a space or a change request (docs/comments.md): list, read, post, update (body, reactions,
resolve / reopen), delete with their replies.

The target's `comments` counter counts open comments: posting an open comment adds one, resolving takes
one, reopening adds it back, deleting an open comment takes it, each in the same transaction as the
comment's own write, conditioned on the status the comment was read in.
"""

from __future__ import annotations

import hashlib

from bindery.domain.access.auth import Caller
from bindery.domain.comments import bodies, reactions
from bindery.domain.comments.targets import Target, TargetRef, check_target, open_target
from bindery.domain.comments.views import CommentView, comment_of, view_of, views_of
from bindery.platform import clock
from bindery.platform.errors import BadRequest, Conflict
from bindery.platform.ids import new_id
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.requests.comments import CommentStatus, PostComment, UpdateComment
from bindery.requests.content import DocumentFormat
from bindery.store import Op, Transaction, TransactionConflict
from bindery.store import comment_replies as reply_store
from bindery.store import comments as store
from bindery.store.comment_replies import REPLIES_PER_TRANSACTION, Reply
from bindery.store.comments import OPEN, RESOLVED, Change, Comment, CommentFilter

MAX_AUTHORS = 100  # DynamoDB's IN takes at most 100 values
ATTEMPTS = 3
BUSY = "The comment kept changing while this request ran; nothing was changed, try again"


def list_comments(caller: Caller, ref: TargetRef, *, order: str, status: CommentStatus, page: str | None,
                  authors: list[str], fmt: DocumentFormat | None, limit: int,
                  cursor: str | None) -> Listing[CommentView]:
    target = open_target(caller, ref)
    authors = list(dict.fromkeys(authors))
    if len(authors) > MAX_AUTHORS:
        raise BadRequest(f"authors: at most {MAX_AUTHORS} user ids")
    wanted = CommentFilter(status=None if status == "all" else status, page=page or None,
                           authors=tuple(authors))
    named = hashlib.sha256("\n".join(sorted(authors)).encode()).hexdigest()[:16] if authors else ""
    scope = f"comments:{ref.space_id}:{target.token}:{order}:{status}:{page or ''}:{named}"
    start = open_page(scope, cursor)
    found = store.comments_page(ref.space_id, target.token, wanted, forward=order == "asc", limit=limit,
                                start_key=start.start)
    comments = [Comment.from_item(item) for item in found.items]
    # By status alone, the target's counters (read with it) are the count. A page or authors filter
    # costs the first page one `Select=COUNT` Query, and its cursor carries the count to the later pages.
    count = start.count
    if count is None:
        count = (target.comments_in(wanted.status) if not (wanted.page or wanted.authors)
                 else store.comments_count(ref.space_id, target.token, wanted))
    return Listing(views_of(target, comments, fmt), next_page(scope, found.last_key, count), count)


def get_comment(caller: Caller, ref: TargetRef, comment_id: str,
                fmt: DocumentFormat | None) -> CommentView:
    target = open_target(caller, ref)
    return view_of(target, comment_of(target, comment_id), fmt)


def post_comment(caller: Caller, ref: TargetRef, body: PostComment) -> CommentView:
    target = open_target(caller, ref)
    target.require_comment("comment here")
    cell = body.tableCell.model_dump() if body.tableCell else None
    check_target(target, body.page, body.node, cell)
    prepared = bodies.prepare(target.space.org_id, body.body)
    now = clock.now_iso()
    comment = Comment(id=new_id(), space_id=target.space.id, change_request_id=target.change_request_id,
                      posted_by=caller.user_id, posted_at=now, body=prepared.markdown,
                      mentions=prepared.mentions, revision=target.revision, page=body.page, node=body.node,
                      table_cell=cell)
    Transaction(store.post_comment_op(comment), target.counter_op(1),
                store.commenter_op(target.space.id, target.token, caller.user_id, 1, now)).commit()
    return view_of(target, comment)


def update_comment(caller: Caller, ref: TargetRef, comment_id: str, body: UpdateComment) -> CommentView:
    target = open_target(caller, ref)
    new_body = reactions.prepared_body(target, body.body)
    for _ in range(ATTEMPTS):
        comment = comment_of(target, comment_id)
        now = clock.now_iso()
        change = Change(comment.key)
        reactions.apply(target, comment, change, body=new_body, has_body=body.body is not None,
                        added=body.addedReactions or [], removed=body.removedReactions or [], at=now,
                        what="comment")
        ops = resolve_ops(target, comment, change, body.resolved, now)
        if change.empty:
            return view_of(target, comment)
        try:
            Transaction([change.op(), *ops]).commit()
        except TransactionConflict:
            continue  # resolved, reopened or deleted meanwhile: read it again
        return view_of(target, comment_of(target, comment_id))
    raise Conflict(BUSY)


def resolve_ops(target: Target, comment: Comment, change: Change, resolved: bool | None,
                at: str) -> list[Op]:
    """Resolve or reopen `comment` in `change` (a no-op when it already is); the target's counter op."""
    if resolved is None:
        return []
    target.require_comment("resolve or reopen comments")
    status = RESOLVED if resolved else OPEN
    if status == comment.status:
        return []
    store.set_status(change, comment, status, target.user_id, at)
    return [target.counter_op(-1, 1) if status == RESOLVED else target.counter_op(1, -1)]


def delete_comment(caller: Caller, ref: TargetRef, comment_id: str) -> bool:
    """Delete the comment and all its replies; False when there was no such comment.

    Up to REPLIES_PER_TRANSACTION replies go in the comment's own transaction. A comment with more has
    its replies deleted that many at a time first, each step one transaction that also takes them out of
    the comment's counts, so that every step leaves a consistent comment (a DELETE interrupted half-way
    leaves a comment with fewer replies; deleting it again finishes). The last step requires the comment
    to still have exactly the replies it deletes: a reply posted meanwhile is picked up by the next round."""
    target = open_target(caller, ref)
    deleted_any, conflicts = False, 0
    while True:
        comment = store.get_comment(target.space.id, target.token, comment_id)
        if comment is None:
            return deleted_any
        target.require_change(comment, "delete this comment")
        page = reply_store.replies_page(target.space.id, target.token, comment_id,
                                        REPLIES_PER_TRANSACTION + 1, None)
        replies = [Reply.from_item(item) for item in page.items]
        last = len(replies) <= REPLIES_PER_TRANSACTION
        batch = replies if last else replies[:REPLIES_PER_TRANSACTION]
        if last:
            counter = target.counter_op(-1) if comment.status == OPEN else target.counter_op(0, -1)
            ops = reply_store.delete_comment_ops(comment, batch, counter)
        else:
            ops = reply_store.delete_replies_ops(comment, batch)
        try:
            Transaction(ops).commit()
        except TransactionConflict as error:
            conflicts += 1
            if conflicts >= ATTEMPTS:
                raise Conflict(BUSY) from error
            continue
        deleted_any = True
        authors = [reply.posted_by for reply in batch] + ([comment.posted_by] if last else [])
        store.forget_commenters(target.space.id, target.token, authors)
        if last:
            return True
