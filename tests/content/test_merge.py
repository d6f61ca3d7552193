"""Three-way merge of revision trees (content.merge.trees): clean merges at page and block level, and every
kind of conflict, reported as a 409 naming the page. Builders shared with the other merge tests."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from bindery.engines.content.merge.trees import MergeConflict, Merged, merge_trees
from bindery.platform.errors import Conflict


# --- builders ---------------------------------------------------------------------------------------------
class Documents:
    """Document blobs by digest, as `load_document` reads them."""

    def __init__(self) -> None:
        self.blobs: dict[str, Any] = {}

    def put(self, document: dict[str, Any]) -> str:
        digest = hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()
        self.blobs[digest] = copy.deepcopy(document)
        return digest

    def load(self, digest: str) -> Any:
        return copy.deepcopy(self.blobs[digest])

    def merge(self, base: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any]) -> Merged:
        return merge_trees(base, ours, theirs, self.load)


def para(key: str, text: str) -> dict[str, Any]:
    leaf = {"object": "leaf", "text": text, "marks": []}
    return {"object": "block", "type": "paragraph", "key": key, "isVoid": False, "data": {},
            "nodes": [{"object": "text", "leaves": [leaf]}]}


def hint(key: str, *children: dict[str, Any]) -> dict[str, Any]:
    return {"object": "block", "type": "hint", "key": key, "isVoid": False, "data": {"style": "info"},
            "nodes": list(children)}


def doc(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"object": "document", "data": {}, "nodes": list(blocks)}


def page(page_id: str, *children: dict[str, Any], **fields: Any) -> dict[str, Any]:
    entry = {"id": page_id, "type": "document", "title": page_id.upper(), "slug": page_id, **fields}
    if children:
        entry["pages"] = list(children)
    return entry


def tree(*pages: dict[str, Any], files: list[Any] | None = None, contents: list[Any] | None = None,
         variables: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"pages": list(pages), "files": files or [], "reusableContents": contents or [],
            "variables": variables or {}}


def find(value: dict[str, Any], page_id: str) -> dict[str, Any]:
    """A page entry of a tree, wherever it is."""
    stack = list(value["pages"])
    while stack:
        entry = stack.pop()
        if entry["id"] == page_id:
            return entry
        stack += entry.get("pages") or []
    raise KeyError(page_id)


def ids(pages: list[dict[str, Any]]) -> list[str]:
    return [entry["id"] for entry in pages]


def conflicts_of(docs: Documents, base: Any, ours: Any, theirs: Any) -> list[tuple[str, str]]:
    with pytest.raises(MergeConflict) as caught:
        docs.merge(base, ours, theirs)
    return [(c.page_id, c.reason) for c in caught.value.conflicts]


@pytest.fixture
def docs() -> Documents:
    return Documents()


@pytest.fixture
def base(docs: Documents) -> dict[str, Any]:
    body = docs.put(doc(para("k1", "one"), hint("h", para("h1", "first"), para("h2", "second")),
                        para("k2", "two")))
    return tree(page("intro", documentId=body),
                page("guide", page("install"), page("usage", documentId=docs.put(doc(para("u", "use"))))),
                page("faq"))


# --- clean merges -----------------------------------------------------------------------------------------
def test_non_overlapping_page_edits_merge_cleanly(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "faq")["title"] = "Questions"
    find(ours, "guide")["pages"].append(page("upgrade"))
    find(theirs, "install")["emoji"] = "1f680"
    theirs["pages"].insert(0, page("news"))
    merged = docs.merge(base, ours, theirs)
    assert find(merged.tree, "faq")["title"] == "Questions"
    assert find(merged.tree, "install")["emoji"] == "1f680"
    assert ids(merged.tree["pages"]) == ["news", "intro", "guide", "faq"]
    assert ids(find(merged.tree, "guide")["pages"]) == ["install", "usage", "upgrade"]
    # Bodies nobody touched keep their digest: the commit writes no new document.
    assert find(merged.tree, "intro")["documentId"] == find(base, "intro")["documentId"]
    assert merged.documents == {}
    assert merged.reusable_documents == {}


def test_edits_to_different_blocks_of_one_page_merge_block_by_block(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "intro")["documentId"] = docs.put(
        doc(para("k1", "ONE"), hint("h", para("h1", "FIRST"), para("h2", "second")), para("k2", "two")))
    find(theirs, "intro")["documentId"] = docs.put(
        doc(para("k0", "zero"), para("k1", "one"), hint("h", para("h1", "first"), para("h2", "SECOND")),
            para("k2", "two"), para("k3", "three")))
    merged = docs.merge(base, ours, theirs)
    assert merged.documents == {"intro": doc(
        para("k0", "zero"), para("k1", "ONE"), hint("h", para("h1", "FIRST"), para("h2", "SECOND")),
        para("k2", "two"), para("k3", "three"))}
    assert "documentId" not in find(merged.tree, "intro")  # filled in by commit_revision


def test_a_body_changed_on_one_side_keeps_that_sides_digest(docs, base):
    ours = copy.deepcopy(base)
    find(ours, "intro")["documentId"] = docs.put(doc(para("k1", "changed")))
    merged = docs.merge(base, ours, base)
    assert find(merged.tree, "intro")["documentId"] == find(ours, "intro")["documentId"]
    assert merged.documents == {}


def test_the_same_edit_on_both_sides_is_no_conflict(docs, base):
    edited = copy.deepcopy(base)
    find(edited, "intro")["title"] = "Welcome"
    find(edited, "intro")["documentId"] = docs.put(doc(para("k1", "hello")))
    edited["pages"].append(page("new"))
    del find(edited, "guide")["pages"][0]
    merged = docs.merge(base, edited, copy.deepcopy(edited))
    assert merged.tree == edited
    assert merged.documents == {}


def test_pages_inserted_under_the_same_parent_on_both_sides_are_all_kept_in_a_fixed_order(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "guide")["pages"][1:1] = [page("b1"), page("b2")]
    find(theirs, "guide")["pages"][1:1] = [page("a1")]
    one, other = docs.merge(base, ours, theirs), docs.merge(base, theirs, ours)
    # Both runs follow `install`; the run whose first id sorts first comes first, whatever the side.
    assert ids(find(one.tree, "guide")["pages"]) == ["install", "a1", "b1", "b2", "usage"]
    assert one == other


def test_a_move_on_one_side_and_an_edit_on_the_other_both_apply(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    usage = find(ours, "guide")["pages"].pop()
    ours["pages"].insert(0, usage)
    find(theirs, "usage")["title"] = "Using it"
    theirs["pages"].reverse()  # faq, guide, intro: a reorder of the top level
    merged = docs.merge(base, ours, theirs)
    # Theirs kept `intro` in place and placed faq, guide before it; ours placed usage there too: the
    # two runs at the same spot come in the order of their first ids.
    assert ids(merged.tree["pages"]) == ["faq", "guide", "usage", "intro"]
    assert find(merged.tree, "usage")["title"] == "Using it"
    assert ids(find(merged.tree, "guide")["pages"]) == ["install"]


def test_timestamps_resolve_without_conflict(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "faq").update(updatedAt="2024-05-02T10:00:00.000Z", title="Ours")
    find(theirs, "faq").update(updatedAt="2024-05-01T10:00:00.000Z", emoji="2705")
    merged = docs.merge(base, ours, theirs)
    latest = "2024-05-02T10:00:00.000Z"
    assert find(merged.tree, "faq") == page("faq", title="Ours", emoji="2705", updatedAt=latest)


def test_files_reusable_contents_and_variables_merge_by_id(docs):
    file = {"id": "f1", "name": "logo.png", "contentType": "image/png", "size": 3, "digest": "a" * 64}
    content = {"id": "rc", "title": "Snippet", "document": docs.put(doc(para("r1", "x"), para("r2", "y")))}
    base = tree(files=[file], contents=[content], variables={"version": "1", "keep": 2})
    ours = tree(files=[{**file, "name": "brand.png"}],
                contents=[{**content, "document": docs.put(doc(para("r1", "X"), para("r2", "y")))}],
                variables={"version": "2", "keep": 2})
    theirs = tree(files=[file, {**file, "id": "f2", "name": "new.png"}],
                  contents=[{**content, "title": "Shared",
                             "document": docs.put(doc(para("r1", "x"), para("r2", "Y")))}],
                  variables={"version": "1", "added": True})
    merged = docs.merge(base, ours, theirs)
    assert merged.tree["files"] == [{**file, "name": "brand.png"}, {**file, "id": "f2", "name": "new.png"}]
    assert merged.tree["variables"] == {"version": "2", "added": True}
    assert merged.tree["reusableContents"] == [{"id": "rc", "title": "Shared"}]
    assert merged.reusable_documents == {"rc": doc(para("r1", "X"), para("r2", "Y"))}


# --- conflicts --------------------------------------------------------------------------------------------
def test_both_sides_editing_the_same_block_is_a_409_naming_the_page_and_block(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "intro")["documentId"] = docs.put(doc(para("k1", "one"), hint("h", para("h1", "ours"))))
    find(theirs, "intro")["documentId"] = docs.put(doc(para("k1", "one"), hint("h", para("h1", "theirs"))))
    with pytest.raises(MergeConflict) as caught:
        docs.merge(base, ours, theirs)
    assert isinstance(caught.value, Conflict)
    assert caught.value.status == 409
    assert [(c.page_id, c.title, c.reason) for c in caught.value.conflicts] == [
        ("intro", "INTRO", "both sides edited block 'h1'")]
    assert "page 'INTRO' (intro): both sides edited block 'h1'" in caught.value.message


def test_a_block_edited_on_one_side_and_deleted_on_the_other_conflicts(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "usage")["documentId"] = docs.put(doc(para("u", "changed")))
    find(theirs, "usage")["documentId"] = docs.put(doc(para("v", "other")))
    assert conflicts_of(docs, base, ours, theirs) == [
        ("usage", "block 'u' was edited on one side and deleted on the other")]


def test_both_sides_rewriting_a_block_whose_key_follows_its_content_conflicts(docs, base):
    # Markdown imports derive keys from content: an edit replaces the block with one of a new key.
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "usage")["documentId"] = docs.put(doc(para("u-ours", "use it so")))
    find(theirs, "usage")["documentId"] = docs.put(doc(para("u-theirs", "use it thus")))
    assert conflicts_of(docs, base, ours, theirs) == [("usage", "both sides replaced block 'u'")]


def test_a_page_edited_on_one_side_and_deleted_on_the_other_conflicts(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "faq")["title"] = "Questions"
    theirs["pages"].pop()
    assert conflicts_of(docs, base, ours, theirs) == [("faq", "edited on one side, deleted on the other")]
    assert conflicts_of(docs, base, theirs, ours) == [("faq", "edited on one side, deleted on the other")]


def test_a_deleted_parent_with_a_child_added_or_edited_on_the_other_side_conflicts(docs, base):
    deleted = copy.deepcopy(base)
    del deleted["pages"][1]  # guide, with install and usage
    added = copy.deepcopy(base)
    find(added, "guide")["pages"].append(page("upgrade"))
    assert conflicts_of(docs, base, deleted, added) == [
        ("upgrade", "added under 'GUIDE', which the other side deleted")]
    edited = copy.deepcopy(base)
    find(edited, "install")["title"] = "Setup"
    assert conflicts_of(docs, base, edited, deleted) == [
        ("install", "edited on one side, deleted on the other")]


def test_a_page_moved_to_different_places_conflicts(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["pages"].append(find(ours, "guide")["pages"].pop())  # usage to the top level
    find(theirs, "faq")["pages"] = [find(theirs, "guide")["pages"].pop()]  # usage under faq
    assert conflicts_of(docs, base, ours, theirs) == [("usage", "moved to different places")]


def test_moves_that_would_nest_two_pages_in_each_other_conflict(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    intro, faq = ours["pages"].pop(0), ours["pages"].pop()
    intro["pages"] = [faq]
    ours["pages"].insert(0, intro)
    intro, faq = theirs["pages"].pop(0), theirs["pages"].pop()
    faq["pages"] = [intro]
    theirs["pages"].append(faq)
    reasons = {reason for _, reason in conflicts_of(docs, base, ours, theirs)}
    assert reasons == {"moved to different places (under each other, one on each side)"}


def test_both_sides_changing_the_title_differently_conflicts(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    find(ours, "faq")["title"] = "Questions"
    find(theirs, "faq")["title"] = "Answers"
    assert conflicts_of(docs, base, ours, theirs) == [("faq", "both sides changed the title")]


def test_a_page_added_on_both_sides_with_different_content_conflicts(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["pages"].append(page("new", title="Ours"))
    theirs["pages"].append(page("new", title="Theirs"))
    assert conflicts_of(docs, base, ours, theirs) == [
        ("new", "added on both sides with different content or places")]


def test_two_new_siblings_with_the_same_slug_conflict(docs, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["pages"].append(page("n1", slug="changelog"))
    theirs["pages"].append(page("n2", slug="changelog"))
    assert sorted(conflicts_of(docs, base, ours, theirs)) == [
        ("n1", "another page at the same level has the slug 'changelog'"),
        ("n2", "another page at the same level has the slug 'changelog'")]


def test_file_content_and_variable_conflicts_are_listed_with_the_pages(docs, base):
    file = {"id": "f1", "name": "logo.png", "contentType": "image/png", "size": 3, "digest": "a" * 64}
    base = {**base, "files": [file], "variables": {"version": "1"}}
    ours = {**copy.deepcopy(base), "files": [{**file, "digest": "b" * 64}], "variables": {"version": "2"}}
    theirs = {**copy.deepcopy(base), "files": [{**file, "digest": "c" * 64}], "variables": {"version": "3"}}
    find(ours, "faq")["title"], find(theirs, "faq")["title"] = "A", "B"
    with pytest.raises(MergeConflict) as caught:
        docs.merge(base, ours, theirs)
    message = caught.value.message
    assert message.startswith("The changes conflict on 3 items; nothing was changed.")
    assert "page 'A' (faq): both sides changed the title" in message
    assert "file 'logo.png' (f1): both sides changed the file's content" in message
    assert "variable 'version' (version): both sides set it differently" in message


def test_git_sync_settings_merge_whole_and_clash_when_both_sides_change_them(docs):
    """`.gitbook.yaml`'s settings (redirects…) travel with the tree: the side that changed them wins."""
    base = tree(page("a"))
    synced = {**base, "gitSync": {"redirects": {"old": "a.md"}}}
    assert docs.merge(base, base, synced).tree["gitSync"] == {"redirects": {"old": "a.md"}}
    assert docs.merge(base, synced, base).tree["gitSync"] == {"redirects": {"old": "a.md"}}
    other = {**base, "gitSync": {"redirects": {"old": "b.md"}}}
    with pytest.raises(MergeConflict, match=r"\.gitbook\.yaml"):
        docs.merge(base, synced, other)
