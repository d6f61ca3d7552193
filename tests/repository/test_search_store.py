"""The indexer's reads of what exists of a revision on every engine (moto, DynamoDB Local): the
revision's index pointer and link report, and its parent's index pointer, in one BatchGetItem."""

from __future__ import annotations

import pytest

from bindery.platform.aws import counting_requests
from bindery.store import search as search_store
from bindery.store.search import IndexPointer

pytestmark = pytest.mark.repository


def test_what_exists_of_a_revision_and_its_parents_index_is_one_request() -> None:
    parent = IndexPointer("s1", "r0", "d" * 64, 10, 3)
    search_store.put_index_pointer(parent)
    with counting_requests() as requests:
        nothing = search_store.built("s1", "r1", "r0")
    assert requests == {"BatchGetItem": 1}
    assert (nothing.index, nothing.report, nothing.parent_index) == (None, None, parent)

    mine = IndexPointer("s1", "r1", "e" * 64, 11, 4)
    search_store.put_index_pointer(mine)
    search_store.put_report_digest("s1", "r1", "f" * 64)
    both = search_store.built("s1", "r1", None)
    assert (both.index, both.report, both.parent_index) == (mine, "f" * 64, None)
    assert search_store.built("s2", "r1", "r0") == search_store.Built(None, None, None)  # other space


def test_a_builder_that_loses_the_race_takes_the_stored_pointer() -> None:
    """Two builders of one revision may store different files (an incremental and a full build answer
    alike, in other bytes): the one whose pointer write is refused serves the winner's file too."""
    first = IndexPointer("s1", "r5", "a" * 64, 10, 3)
    assert search_store.put_index_pointer(first) == first
    assert search_store.put_index_pointer(IndexPointer("s1", "r5", "b" * 64, 12, 3)) == first
    assert search_store.get_index_pointer("s1", "r5") == first
