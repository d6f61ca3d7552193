"""The merge rules for items present on only some sides and for single fields (content.merge.fields),
through merge_trees where a user meets them (files, blocks, page fields) and directly where the rule is
the function's own. Every rule is checked in both directions: the merge does not depend on which side
is "ours" (docs/merge.md)."""

from __future__ import annotations

import copy

import pytest

from bindery.engines.content.merge.fields import ADDED_TWICE, EDITED_DELETED, merge_fields, merge_presence
from tests.content.test_merge import Documents, conflicts_of, doc, find, page, para, tree

FILE = {"id": "f1", "name": "logo.png", "contentType": "image/png", "size": 3, "digest": "a" * 64}
EDITED_FILE = {**FILE, "name": "brand.png"}
OTHER_FILE = {**FILE, "name": "other.png"}


@pytest.fixture
def docs() -> Documents:
    return Documents()


# --- present on some sides only ---------------------------------------------------------------------------
@pytest.mark.parametrize("flip", [False, True], ids=["we-delete", "they-delete"])
def test_a_delete_on_one_side_and_an_edit_on_the_other_conflicts(flip):
    deleted, edited = None, EDITED_FILE
    ours, theirs = (edited, deleted) if flip else (deleted, edited)
    assert merge_presence(FILE, ours, theirs) == (None, EDITED_DELETED)


@pytest.mark.parametrize("flip", [False, True], ids=["we-delete", "they-delete"])
def test_a_file_deleted_on_one_side_and_renamed_on_the_other_is_a_conflict_not_a_lost_edit(docs, flip):
    base, deleted, renamed = tree(files=[FILE]), tree(), tree(files=[EDITED_FILE])
    ours, theirs = (renamed, deleted) if flip else (deleted, renamed)
    assert conflicts_of(docs, base, ours, theirs) == [("f1", "edited on one side, deleted on the other")]


@pytest.mark.parametrize("flip", [False, True], ids=["we-delete", "they-delete"])
def test_a_block_deleted_on_one_side_and_edited_on_the_other_conflicts(docs, flip):
    base = tree(page("p", documentId=docs.put(doc(para("k1", "one"), para("k2", "two")))))
    deleted, edited = copy.deepcopy(base), copy.deepcopy(base)
    find(deleted, "p")["documentId"] = docs.put(doc(para("k2", "two")))
    find(edited, "p")["documentId"] = docs.put(doc(para("k1", "ONE"), para("k2", "two")))
    ours, theirs = (edited, deleted) if flip else (deleted, edited)
    assert conflicts_of(docs, base, ours, theirs) == [
        ("p", "block 'k1' was edited on one side and deleted on the other")]


@pytest.mark.parametrize("flip", [False, True], ids=["we-delete", "they-delete"])
def test_a_delete_on_one_side_of_an_item_the_other_left_alone_deletes_it(docs, flip):
    ours, theirs = (dict(FILE), None) if flip else (None, dict(FILE))
    assert merge_presence(FILE, ours, theirs) == (None, None)
    kept, deleted = tree(files=[FILE]), tree()
    merged = docs.merge(tree(files=[FILE]), *((kept, deleted) if flip else (deleted, kept)))
    assert merged.tree["files"] == []


def test_an_item_deleted_on_both_sides_stays_deleted():
    assert merge_presence(FILE, None, None) == (None, None)


@pytest.mark.parametrize("flip", [False, True], ids=["ours", "theirs"])
def test_an_item_added_on_one_side_is_kept(flip):
    ours, theirs = (None, FILE) if flip else (FILE, None)
    assert merge_presence(None, ours, theirs) == (FILE, None)


def test_the_same_entry_added_on_both_sides_is_kept_once(docs):
    assert merge_presence(None, dict(FILE), dict(FILE)) == (FILE, None)
    merged = docs.merge(tree(), tree(files=[dict(FILE)]), tree(files=[dict(FILE)]))
    assert merged.tree["files"] == [FILE]


@pytest.mark.parametrize("flip", [False, True], ids=["ours-first", "theirs-first"])
def test_one_entry_added_on_both_sides_differently_conflicts(docs, flip):
    ours, theirs = (OTHER_FILE, EDITED_FILE) if flip else (EDITED_FILE, OTHER_FILE)
    assert merge_presence(None, ours, theirs)[1] == ADDED_TWICE
    assert conflicts_of(docs, tree(), tree(files=[ours]), tree(files=[theirs])) == [
        ("f1", "added on both sides with different content")]


# --- fields ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("flip", [False, True], ids=["we-remove", "they-remove"])
def test_a_field_removed_on_one_side_stays_removed_never_null(docs, flip):
    base = {"id": "p", "title": "T", "description": "old"}
    removed = {"id": "p", "title": "T"}
    ours, theirs = (dict(base), removed) if flip else (removed, dict(base))
    assert merge_fields(base, ours, theirs) == ({"id": "p", "title": "T"}, [])
    pages = tree(page("p", description="old"))
    without = tree(page("p"))
    same = copy.deepcopy(pages)
    merged = docs.merge(pages, *((same, without) if flip else (without, same)))
    assert "description" not in find(merged.tree, "p")


@pytest.mark.parametrize("flip", [False, True], ids=["we-remove", "they-remove"])
def test_a_field_removed_on_one_side_and_changed_on_the_other_conflicts(flip):
    base = {"id": "p", "description": "old"}
    ours, theirs = ({"id": "p", "description": "new"}, {"id": "p"})
    if flip:
        ours, theirs = theirs, ours
    assert merge_fields(base, ours, theirs)[1] == ["description"]


@pytest.mark.parametrize("flip", [False, True], ids=["ours-earlier", "theirs-earlier"])
def test_created_at_set_differently_on_both_sides_takes_the_earliest(docs, flip):
    base = "2024-05-02T10:00:00.000Z"
    early, late = "2024-05-01T10:00:00.000Z", "2024-05-03T10:00:00.000Z"
    ours, theirs = (early, late) if flip else (late, early)
    assert merge_fields({"createdAt": base}, {"createdAt": ours}, {"createdAt": theirs}) == (
        {"createdAt": early}, [])
    pages = tree(page("p", createdAt=base))
    merged = docs.merge(pages, tree(page("p", createdAt=ours)), tree(page("p", createdAt=theirs)))
    assert find(merged.tree, "p")["createdAt"] == early


def test_created_at_changed_on_one_side_only_takes_that_sides_value_even_if_later():
    base, later = "2024-05-01T10:00:00.000Z", "2024-05-09T10:00:00.000Z"
    assert merge_fields({"createdAt": base}, {"createdAt": later}, {"createdAt": base}) == (
        {"createdAt": later}, [])
    assert merge_fields({"createdAt": base}, {"createdAt": base}, {"createdAt": later}) == (
        {"createdAt": later}, [])


@pytest.mark.parametrize("flip", [False, True], ids=["ours-removes", "theirs-removes"])
def test_created_at_removed_on_one_side_and_nulled_on_the_other_goes_without_a_conflict(flip):
    # Neither side holds a time: the earliest of none is no createdAt at all, not a crash.
    base = {"id": "p", "createdAt": "2024-05-01T10:00:00.000Z"}
    removed, nulled = {"id": "p"}, {"id": "p", "createdAt": None}
    ours, theirs = (nulled, removed) if flip else (removed, nulled)
    assert merge_fields(base, ours, theirs) == ({"id": "p"}, [])


@pytest.mark.parametrize("flip", [False, True], ids=["ours-later", "theirs-later"])
def test_updated_at_set_differently_on_both_sides_takes_the_latest(flip):
    base = "2024-05-01T10:00:00.000Z"
    early, late = "2024-05-02T10:00:00.000Z", "2024-05-03T10:00:00.000Z"
    ours, theirs = (late, early) if flip else (early, late)
    assert merge_fields({"updatedAt": base}, {"updatedAt": ours}, {"updatedAt": theirs}) == (
        {"updatedAt": late}, [])
    # One side's time against the other's removal: the time that exists wins, and it is no conflict.
    assert merge_fields({"updatedAt": base}, {"updatedAt": ours}, {}) == ({"updatedAt": ours}, [])
    assert merge_fields({"updatedAt": base}, {"updatedAt": None}, {}) == ({}, [])


def test_a_skipped_field_is_left_out_and_every_field_after_it_still_merges():
    base = {"nodes": [1], "title": "T", "description": "d"}
    ours = {"nodes": [1, 2], "title": "Ours", "description": "d"}
    theirs = {"nodes": [3], "title": "T", "description": "Theirs"}
    merged = ({"title": "Ours", "description": "Theirs"}, [])
    assert merge_fields(base, ours, theirs, skip=("nodes",)) == merged
