"""The change request items and their conditions on every engine (moto, DynamoDB Local): numbering by the
space's counter, status moves with counters, the conditional revision pointer, string sets, indexes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery.store import change_requests as cr_store
from bindery.store import reviews as review_store
from bindery.store import spaces as space_store
from bindery.store import table
from bindery.store.change_request_filters import Filters
from bindery.store.change_requests import ChangeRequest
from bindery.store.spaces import Space
from tests.repository.org_item import ensure_org

pytestmark = pytest.mark.repository

T0 = "2026-01-01T00:00:00.000Z"


def _space(sid: str = "s1") -> Space:
    space = Space(id=sid, org_id="o1", created_at=T0, updated_at=T0, position="a0", title=sid, revision="r0")
    ensure_org("o1")
    table.transact(space_store.create_space_ops(space))
    return space


def _cr(number: int, cid: str | None = None, status: str = "open", created_at: str = T0) -> ChangeRequest:
    return ChangeRequest(id=cid or f"cr{number}", space_id="s1", org_id="o1", number=number, status=status,
                         subject="", created_by="u1", created_at=created_at, updated_at=T0, revision="r0",
                         revision_initial="r0")


def _counters() -> tuple[int, int, int]:
    space = space_store.get_space("s1")
    assert space is not None
    return space.change_requests, space.change_requests_open, space.change_requests_draft


def test_create_is_numbered_by_the_space_counter_and_a_stale_number_fails():
    _space()
    table.transact(cr_store.create_ops(_cr(1), 0))
    table.transact(cr_store.create_ops(_cr(2, status="draft"), 1))
    assert _counters() == (2, 1, 1)
    with pytest.raises(table.TransactionConflict) as raised:  # someone else took number 2
        table.transact(cr_store.create_ops(_cr(2, "other"), 1))
    assert raised.value.reasons[1] == "ConditionalCheckFailed"
    assert cr_store.get_change_request("s1", "other") is None
    assert _counters() == (2, 1, 1)
    found = cr_store.get_by_number("s1", 2)
    assert found is not None
    assert found.id == "cr2"
    assert cr_store.get_by_number("s1", 3) is None


def test_item_round_trip_keeps_sets_and_maps():
    _space()
    cr = replace(_cr(1), contributors=["u1", "u2"], requested_reviewers=["u3"],
                 latest_reviews={"u3": {"id": "rv1", "status": "approved", "revision": "r0"}},
                 description={"object": "document", "data": {}, "nodes": []})
    table.transact(cr_store.create_ops(cr, 0))
    assert cr_store.get_change_request("s1", "cr1") == cr


def test_status_moves_indexes_and_counters_and_checks_the_status_read():
    _space()
    cr = _cr(1)
    table.transact(cr_store.create_ops(cr, 0))
    drafted = replace(cr, status="draft", updated_at="2026-01-02T00:00:00.000Z")
    table.transact(cr_store.status_ops(cr, drafted))
    assert _counters() == (1, 0, 1)
    assert [item["id"] for item in cr_store.space_page("s1", "draft", 10, None).items] == ["cr1"]
    assert cr_store.space_page("s1", "open", 10, None).items == []
    assert [item["id"] for item in cr_store.org_page("o1", "draft", 10, None).items] == ["cr1"]
    with pytest.raises(table.TransactionConflict):  # still thinks it is open
        table.transact(cr_store.status_ops(cr, replace(cr, status="archived")))
    assert _counters() == (1, 0, 1)


def test_advance_needs_the_expected_revision_and_an_editable_status():
    _space()
    cr = _cr(1)
    table.transact(cr_store.create_ops(cr, 0))
    table.transact([cr_store.advance_op(cr, replace(cr, revision="r1", updated_at=T0), contributor="u9")])
    with pytest.raises(table.TransactionConflict):
        table.transact([cr_store.advance_op(cr, replace(cr, revision="r2", updated_at=T0))])
    moved = cr_store.get_change_request("s1", "cr1")
    assert moved is not None
    assert (moved.revision, moved.contributors) == ("r1", ["u9"])
    table.transact(cr_store.status_ops(moved, replace(moved, status="archived")))
    with pytest.raises(table.TransactionConflict):
        table.transact([cr_store.advance_op(moved, replace(moved, revision="r2", updated_at=T0))])


def test_listing_filters_on_sets_and_pages_newest_first():
    _space()
    for number in (1, 2, 3):
        table.transact(cr_store.create_ops(_cr(number), number - 1))
    table.transact([cr_store.set_member_op(_cr(2), "requestedReviewers", {"u5"}, add=True)])
    narrowed = cr_store.space_page("s1", "open", 10, None, Filters(requested_reviewer="u5").expression())
    assert [item["id"] for item in narrowed.items] == ["cr2"]
    first = cr_store.space_page("s1", "open", 2, None)
    assert [item["id"] for item in first.items] == ["cr3", "cr2"]
    rest = cr_store.space_page("s1", "open", 2, first.last_key)
    assert [item["id"] for item in rest.items] == ["cr1"]
    table.transact([cr_store.set_member_op(_cr(2), "requestedReviewers", {"u5"}, add=False)])
    assert cr_store.get_change_request("s1", "cr2").requested_reviewers == []


def test_contributions_count_per_user():
    _space()
    table.transact(cr_store.create_ops(_cr(1), 0))
    for at in ("2026-01-02T00:00:00.000Z", "2026-01-03T00:00:00.000Z"):
        table.transact([review_store.contribution_op("s1", "cr1", "u1", at)])
    contributors, last = review_store.contributors_page("s1", "cr1", 10, None)
    assert [(c.user_id, c.count) for c in contributors] == [("u1", 2)]
    assert contributors[0].updated_at == "2026-01-03T00:00:00.000Z"
    assert last is None


def test_move_to_org_moves_each_change_request_once_and_stale_status_writes_fail():
    _space()
    table.transact(cr_store.create_ops(_cr(1), 0))
    table.transact(cr_store.create_ops(_cr(2, status="draft"), 1))
    stale = cr_store.get_change_request("s1", "cr1")
    assert stale is not None
    # The space has moved to o2 (its transfer's transaction is not needed here); its change requests follow.
    assert cr_store.move_to_org("s1", "o1", "o2") == 2
    assert cr_store.move_to_org("s1", "o1", "o2") == 0  # repeated: nothing left to move
    assert [i["id"] for i in cr_store.org_page("o2", "open", 10, None).items] == ["cr1"]
    assert [i["id"] for i in cr_store.org_page("o2", "draft", 10, None).items] == ["cr2"]
    assert cr_store.org_page("o1", "open", 10, None).items == []
    # A status change computed from before the move would file it back under o1: refused.
    with pytest.raises(table.TransactionConflict):
        table.transact(cr_store.status_ops(stale, replace(stale, status="archived")))
    moved = cr_store.get_change_request("s1", "cr1")
    assert moved is not None
    assert (moved.org_id, moved.status) == ("o2", "open")
