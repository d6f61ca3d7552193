"""Reverting single blocks of a document (content.block_reverts)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bindery.engines.content.block_reverts import UnknownBlock, revert_blocks


def block(key: str, text: str = "") -> dict[str, object]:
    return {"object": "block", "type": "paragraph", "key": key, "data": {"text": text or key}, "nodes": []}


def doc(*blocks: dict[str, object]) -> dict[str, object]:
    return {"object": "document", "data": {"schema": 1}, "nodes": list(blocks)}


def keys(document: dict[str, object]) -> list[tuple[str, str]]:
    return [(b["key"], b["data"]["text"]) for b in document["nodes"]]  # type: ignore[attr-defined, index]


def test_added_removed_modified_and_moved_blocks_go_back_in_place() -> None:
    older = doc(block("a"), block("b"), block("c"), block("d"))
    current = doc(block("d"), block("a", "A2"), block("new"), block("c"))  # d moved, a edited, b gone
    assert keys(revert_blocks(current, older, ["b"])) == [
        ("d", "d"), ("a", "A2"), ("b", "b"), ("new", "new"), ("c", "c")]  # after a, as it was
    assert keys(revert_blocks(current, older, ["new"])) == [("d", "d"), ("a", "A2"), ("c", "c")]
    assert keys(revert_blocks(current, older, ["d"])) == [
        ("a", "A2"), ("new", "new"), ("c", "c"), ("d", "d")]  # back after c
    assert keys(revert_blocks(current, older, ["a"])) == [
        ("a", "a"), ("d", "d"), ("new", "new"), ("c", "c")]  # first, as it was
    # the rest of the document (its data) is the current one's
    assert revert_blocks(current, older, ["a"])["data"] == {"schema": 1}


def test_empty_documents_and_unknown_keys() -> None:
    assert keys(revert_blocks(None, doc(block("a")), ["a"])) == [("a", "a")]
    assert revert_blocks(doc(block("a")), None, ["a"])["nodes"] == []
    with pytest.raises(UnknownBlock, match="zz"):
        revert_blocks(doc(block("a")), doc(block("b")), ["a", "zz"])


KEYS = st.lists(st.sampled_from("abcdefg"), unique=True)


@given(KEYS, KEYS)
def test_reverting_every_block_gives_the_older_document(older_keys: list[str],
                                                        current_keys: list[str]) -> None:
    older = doc(*(block(k, f"old {k}") for k in older_keys))
    current = doc(*(block(k, f"new {k}") for k in current_keys))
    everything = sorted(set(older_keys) | set(current_keys))
    assert revert_blocks(current, older, everything)["nodes"] == older["nodes"]


@given(KEYS, KEYS, st.sets(st.sampled_from("abcdefg")))
def test_blocks_not_named_keep_their_order_and_content(older_keys: list[str], current_keys: list[str],
                                                      chosen: set[str]) -> None:
    older = doc(*(block(k, f"old {k}") for k in older_keys))
    current = doc(*(block(k, f"new {k}") for k in current_keys))
    named = sorted(chosen & (set(older_keys) | set(current_keys)))
    result = revert_blocks(current, older, named)["nodes"]
    untouched = [b for b in current["nodes"] if b["key"] not in named]
    assert [b for b in result if b["key"] not in named] == untouched
    assert {b["key"] for b in result} & set(named) == set(named) & set(older_keys)
