"""The comment store's expressions against the table (moto, and DynamoDB Local for the repository tier):
reactions under concurrent writers, conditioned status changes, counters, the listing's indexes and
the delete transaction's guard."""

from __future__ import annotations

import pytest

from bindery import keys
from bindery.keys import comments as comment_keys
from bindery.store import comment_replies as reply_store
from bindery.store import comments as store
from bindery.store import table
from bindery.store.comment_replies import Reply
from bindery.store.comments import Change, Comment, CommentFilter
from bindery.store.table import TransactionConflict

pytestmark = pytest.mark.repository

SPACE = "s1"
AT = "2026-01-01T00:00:00.000Z"


def put_space(comments: int = 0) -> None:
    table.transact([table.put_op({**keys.space(SPACE), "type": "space", "id": SPACE, "comments": comments})])


def new_comment(comment_id: str, *, author: str = "u1", page: str | None = None, status: str = "open",
                change_request: str | None = None) -> Comment:
    comment = Comment(id=comment_id, space_id=SPACE, change_request_id=change_request, posted_by=author,
                      posted_at=AT, body="hello", revision="r1", page=page, status=status)
    ops = [table.put_op(comment.to_item(), "attribute_not_exists(PK)"),
           store.commenter_op(SPACE, comment.target, author, 1, AT)]
    if status == "open":
        ops.append(store.counter_op(keys.space(SPACE), 1, space=True))
    table.transact(ops)
    return comment


def read(comment_id: str, change_request: str | None = None) -> Comment:
    found = store.get_comment(SPACE, comment_keys.target(change_request), comment_id)
    assert found is not None
    return found


def space_counter() -> int:
    return int(table.get(keys.space(SPACE))["comments"])


def test_concurrent_reactions_count_each_user_once_per_emoji():
    # Writers racing each other: every change is built before any is applied, as concurrent requests
    # build theirs from what they read before the others land. A change that rewrote the whole map from
    # its own snapshot would lose the others' reactions; each entry is its own map key, so none is lost.
    # (Sequential on purpose: moto's in-memory tables are not thread-safe.)
    put_space()
    comment = new_comment("c1")
    users = [f"u{n}" for n in range(8)]
    reacts = []
    for user in users:
        for _ in range(3):  # the same reaction, again and again
            change = Change(comment.key)
            store.react(change, user, ["👍", "🎉"], [], AT)
            reacts.append(change)
    for change in reacts:
        table.transact([change.op()])
    reactions = read("c1").reactions
    assert len(reactions) == 16
    assert sorted(store.split_reaction_entry(entry) for entry in reactions) == sorted(
        (user, emoji) for user in users for emoji in ("👍", "🎉"))

    unreacts = []
    for user in users[:5]:
        change = Change(comment.key)
        store.react(change, user, [], ["👍", "🚀"], AT)
        unreacts.append(change)
    for change in unreacts:
        table.transact([change.op()])
    left = [store.split_reaction_entry(entry) for entry in read("c1").reactions]
    assert sorted(user for user, emoji in left if emoji == "👍") == users[5:]
    assert len([1 for _, emoji in left if emoji == "🎉"]) == 8


def test_a_full_reaction_map_refuses_more():
    put_space()
    comment = Comment(id="c1", space_id=SPACE, change_request_id=None, posted_by="u1", posted_at=AT,
                      body="hello", reactions={store.reaction_entry("u1", f"e{n}"): AT
                                               for n in range(store.MAX_REACTIONS)})
    table.transact([table.put_op(comment.to_item())])
    more = Change(comment.key)
    store.react(more, "u2", ["👍"], [], AT)
    with pytest.raises(TransactionConflict):
        table.transact([more.op()])


def test_a_status_change_is_conditioned_on_the_status_read_and_moves_the_counter_with_it():
    put_space()
    comment = new_comment("c1")
    assert space_counter() == 1
    resolve = Change(comment.key)
    store.set_status(resolve, comment, "resolved", "u2", AT)
    table.transact([resolve.op(), store.counter_op(keys.space(SPACE), -1, space=True)])
    resolved = read("c1")
    assert (resolved.status, resolved.resolved_by, resolved.resolved_at) == ("resolved", "u2", AT)
    assert space_counter() == 0
    stale = Change(comment.key)  # built from the comment as read while it was open
    store.set_status(stale, comment, "resolved", "u3", AT)
    with pytest.raises(TransactionConflict):
        table.transact([stale.op(), store.counter_op(keys.space(SPACE), -1, space=True)])
    assert space_counter() == 0
    reopen = Change(resolved.key)
    store.set_status(reopen, resolved, "open", "u2", AT)
    table.transact([reopen.op(), store.counter_op(keys.space(SPACE), 1, space=True)])
    assert (read("c1").status, read("c1").resolved_by, space_counter()) == ("open", None, 1)


def test_the_counter_of_a_deleted_space_does_not_move():
    table.transact([table.put_op({**keys.space(SPACE), "type": "space", "id": SPACE, "deletedAt": AT})])
    with pytest.raises(TransactionConflict):
        new_comment("c1")
    assert store.get_comment(SPACE, "SPACE", "c1") is None


def test_listing_reads_each_filter_from_its_index():
    put_space()
    new_comment("c1", author="u1", page="p1")
    new_comment("c2", author="u2", page="p2", status="resolved")
    new_comment("c3", author="u1")
    new_comment("c4", author="u2", page="p1")
    new_comment("x1", author="u1", change_request="cr1")  # another target

    def ids(wanted: CommentFilter, forward: bool = True) -> list[str]:
        page = store.comments_page(SPACE, "SPACE", wanted, forward=forward, limit=100, start_key=None)
        return [item["id"] for item in page.items]

    assert ids(CommentFilter()) == ["c1", "c2", "c3", "c4"]
    assert ids(CommentFilter(), forward=False) == ["c4", "c3", "c2", "c1"]
    assert ids(CommentFilter(status="open")) == ["c1", "c3", "c4"]
    assert ids(CommentFilter(status="resolved")) == ["c2"]
    assert ids(CommentFilter(page="p1")) == ["c1", "c4"]
    assert ids(CommentFilter(authors=("u2",))) == ["c2", "c4"]
    assert ids(CommentFilter(authors=("u2", "u1"))) == ["c1", "c2", "c3", "c4"]
    assert ids(CommentFilter(page="p1", authors=("u2",), status="open")) == ["c4"]
    assert ids(CommentFilter(authors=("u1",), status="resolved")) == []
    on_cr = store.comments_page(SPACE, "CR#cr1", CommentFilter(), forward=True, limit=10, start_key=None)
    assert [item["id"] for item in on_cr.items] == ["x1"]


def test_replies_move_the_counts_and_the_delete_requires_every_reply():
    put_space()
    comment = new_comment("c1")
    replies = [Reply(id=f"r{n}", space_id=SPACE, change_request_id=None, posted_by=f"u{n % 2 + 1}",
                     posted_at=AT, body="re", comment_id="c1") for n in range(3)]
    for reply in replies:
        table.transact(reply_store.post_reply_ops(reply))
    counted = read("c1")
    assert (counted.replies, counted.replier_counts) == (3, {"u1": 2, "u2": 1})
    stale = comment  # read before the replies: its `replies` is 0
    with pytest.raises(TransactionConflict):
        table.transact(reply_store.delete_comment_ops(stale, [], store.counter_op(keys.space(SPACE), -1,
                                                                                  space=True)))
    table.transact(reply_store.delete_replies_ops(counted, replies[:1]))
    after = read("c1")
    assert (after.replies, after.replier_counts) == (2, {"u1": 1, "u2": 1})
    page = reply_store.replies_page(SPACE, "SPACE", "c1", 10, None)
    assert [item["id"] for item in page.items] == ["r1", "r2"]
    table.transact(reply_store.delete_comment_ops(after, replies[1:], store.counter_op(keys.space(SPACE), -1,
                                                                                         space=True)))
    assert store.get_comment(SPACE, "SPACE", "c1") is None
    assert reply_store.replies_page(SPACE, "SPACE", "c1", 10, None).items == []
    assert space_counter() == 0


def test_commenters_are_counted_and_forgotten_at_zero():
    put_space()
    new_comment("c1", author="u2")
    new_comment("c2", author="u1")
    new_comment("c3", author="u2")
    listed = store.commenters_page(SPACE, "SPACE", 10, None)
    assert [(item["userId"], item["count"]) for item in listed.items] == [("u1", 1), ("u2", 2)]
    table.transact([store.commenter_op(SPACE, "SPACE", "u1", -1, "")])
    store.forget_commenters(SPACE, "SPACE", ["u1", "u2"])
    assert table.get(comment_keys.commenter(SPACE, "SPACE", "u1")) is None
    assert [item["userId"] for item in store.commenters_page(SPACE, "SPACE", 10, None).items] == ["u2"]
    table.transact([store.commenter_op(SPACE, "SPACE", "u1", 1, AT)])  # commenting again brings them back
    assert table.get(comment_keys.commenter(SPACE, "SPACE", "u1"))["count"] == 1
