"""Property tests of the three-way merge over generated small trees and pairs of edits.

Each generated case is a base tree (nested document and group pages, documents with paragraphs and
hints, files, variables) and two edit scripts, A and B. Every base page, block, file and variable is
owned by A, B or nobody; a side edits, moves and deletes only what it owns (deleting a page or block
only when it owns everything below it) and adds pages only at the top level or under pages it owns.
Such edits never conflict, whatever they are; both sides may still edit the same page's body (in
different blocks) and insert pages or blocks at the same place.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bindery.engines.content.merge.trees import MergeConflict
from tests.content.test_merge import Documents, doc, find, hint, para

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SIDES = ("A", "B")
OWNER = st.sampled_from(["A", "B", None])
Draw = Any


@st.composite
def documents(draw: Draw, prefix: str) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = []
    for n in range(draw(st.integers(1, 4))):
        key = f"{prefix}.{n}"
        if draw(st.integers(0, 3)) == 0:
            children = [para(f"{key}.{m}", f"text {m}") for m in range(draw(st.integers(1, 3)))]
            blocks.append(hint(key, *children))
        else:
            blocks.append(para(key, f"text {n}"))
    return doc(*blocks)


@st.composite
def cases(draw: Draw) -> tuple[Documents, dict[str, Any], dict[str, Any]]:
    """A base tree, its blob store and who owns what."""
    docs, owners = Documents(), {}
    pages = []
    for n in range(draw(st.integers(1, 4))):
        top = f"p{n}"
        kind = draw(st.sampled_from(["document", "document", "group"]))
        children = []
        for m in range(draw(st.integers(0, 3))):
            child = f"{top}c{m}"
            children.append({"id": child, "type": "document", "title": child, "slug": child,
                             "documentId": docs.put(draw(documents(child)))})
        entry = {"id": top, "type": kind, "title": top, "slug": top}
        if kind == "document":
            entry["documentId"] = docs.put(draw(documents(top)))
        if children:
            entry["pages"] = children
        pages.append(entry)
    base = {"pages": pages, "reusableContents": [],
            "files": [{"id": f"f{n}", "name": f"f{n}.png", "contentType": "image/png", "size": 1,
                       "digest": f"{n:x}" * 64} for n in range(draw(st.integers(0, 3)))],
            "variables": {f"v{n}": n for n in range(draw(st.integers(0, 3)))}}
    for entry in _walk(base["pages"]):
        owners[entry["id"]] = owner = draw(OWNER)
        document = docs.blobs.get(entry.get("documentId", ""))
        for block in _blocks(document["nodes"] if document else []):
            owners[block["key"]] = owner or draw(OWNER)
    for name in [f["id"] for f in base["files"]] + list(base["variables"]):
        owners[name] = draw(OWNER)
    return docs, base, owners


def _walk(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [x for entry in pages for x in (entry, *_walk(entry.get("pages") or []))]


def _blocks(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [x for node in nodes for x in (node, *_blocks(node["nodes"] if node["type"] == "hint" else []))]


def _owns_all(owners: dict[str, Any], side: str, names: list[str]) -> bool:
    return all(owners.get(name) == side for name in names)


@st.composite
def edit_document(draw: Draw, document: dict[str, Any], side: str, owners: dict[str, Any]) -> dict[str, Any]:
    document = copy.deepcopy(document)
    lists = [document["nodes"], *(b["nodes"] for b in _blocks(document["nodes"])
                                  if b["type"] == "hint" and owners.get(b["key"]) in (side, None))]
    for nodes in lists:
        for block in list(nodes):
            if owners.get(block["key"]) != side:
                continue
            action = draw(st.sampled_from(["keep", "edit", "delete"]))
            if action == "edit" and block["type"] == "paragraph":
                block["nodes"][0]["leaves"][0]["text"] += f" by {side}"
            elif action == "delete" and _owns_all(owners, side, [b["key"] for b in _blocks([block])]):
                nodes.remove(block)
        for n in range(draw(st.integers(0, 1))):
            key = f"{side}-{draw(st.integers(0, 10**6))}-{n}"
            nodes.insert(draw(st.integers(0, len(nodes))), para(key, f"new by {side}"))
    return document


def _edit_pages(draw: Draw, docs: Documents, out: dict[str, Any], owners: dict[str, Any], side: str) -> None:
    for entry in _walk(out["pages"]):
        if owners.get(entry["id"]) == side and draw(st.booleans()):
            entry["title"] += f" by {side}"
        # A side may insert blocks into any page but those the other side owns (and may delete).
        if "documentId" in entry and owners.get(entry["id"]) in (side, None) and draw(st.booleans()):
            edited = draw(edit_document(docs.blobs[entry["documentId"]], side, owners))
            entry["documentId"] = docs.put(edited)
    for siblings in [out["pages"], *(e["pages"] for e in _walk(out["pages"]) if e.get("pages"))]:
        for entry in list(siblings):
            if owners.get(entry["id"]) != side:
                continue
            action = draw(st.sampled_from(["keep", "keep", "delete", "reorder", "to-top"]))
            if action == "delete" and _owns_subtree(docs, owners, side, entry):
                siblings.remove(entry)
            elif action == "reorder":
                siblings.remove(entry)
                siblings.insert(draw(st.integers(0, len(siblings))), entry)
            elif action == "to-top" and entry["type"] == "document" and siblings is not out["pages"]:
                siblings.remove(entry)
                out["pages"].insert(draw(st.integers(0, len(out["pages"]))), entry)
    parents = [out["pages"], *(e.setdefault("pages", []) for e in _walk(out["pages"])
                               if owners.get(e["id"]) == side and e["type"] in ("document", "group"))]
    for n in range(draw(st.integers(0, 2))):
        siblings = draw(st.sampled_from(parents))
        new = {"id": f"{side}{n}", "type": "document", "title": f"{side}{n}", "slug": f"{side}{n}"}
        siblings.insert(draw(st.integers(0, len(siblings))), new)


def _owns_subtree(docs: Documents, owners: dict[str, Any], side: str, entry: dict[str, Any]) -> bool:
    subtree = _walk([entry])
    blocks = [b for p in subtree if "documentId" in p for b in _blocks(docs.blobs[p["documentId"]]["nodes"])]
    return _owns_all(owners, side, [p["id"] for p in subtree] + [b["key"] for b in blocks])


@st.composite
def edits(draw: Draw, docs: Documents, base: dict[str, Any], owners: dict[str, Any],
          side: str) -> dict[str, Any]:
    """One side's non-conflicting edit of `base` (see the module docstring)."""
    out = copy.deepcopy(base)
    _edit_pages(draw, docs, out, owners, side)
    for file in out["files"]:
        if owners.get(file["id"]) == side and draw(st.booleans()):
            file["name"] = f"{side}-{file['name']}"
    if draw(st.booleans()):
        out["files"].append({"id": f"f{side}", "name": "x", "contentType": "text/plain", "size": 1,
                             "digest": "e" * 64})
    for name in list(out["variables"]):
        action = draw(st.sampled_from(["keep", "set", "delete"])) if owners.get(name) == side else "keep"
        if action == "set":
            out["variables"][name] = side
        elif action == "delete":
            del out["variables"][name]
    return out


@st.composite
def edit_pairs(draw: Draw) -> tuple[Documents, dict[str, Any], dict[str, Any], dict[str, Any]]:
    docs, base, owners = draw(cases())
    ours, theirs = (draw(edits(docs, base, owners, side)) for side in SIDES)
    return docs, base, ours, theirs


@SETTINGS
@given(edit_pairs())
def test_non_conflicting_edits_merge_the_same_in_either_order(case):
    docs, base, a, b = case
    one, other = docs.merge(base, a, b), docs.merge(base, b, a)
    assert one.tree == other.tree
    assert one.documents == other.documents
    # Each side's retitles made it through.
    titles = {entry["id"]: entry["title"] for entry in _walk(one.tree["pages"])}
    for side in (a, b):
        for entry in _walk(side["pages"]):
            if entry["title"].endswith(" by A") or entry["title"].endswith(" by B"):
                assert titles[entry["id"]] == entry["title"]


@SETTINGS
@given(edit_pairs())
def test_merging_with_an_unchanged_side_gives_the_other_side(case):
    docs, base, edited, _ = case
    for merged in (docs.merge(base, edited, base), docs.merge(base, base, edited)):
        assert merged.tree == edited
        assert merged.documents == {}
        assert merged.reusable_documents == {}


@SETTINGS
@given(edit_pairs(), st.data())
def test_both_sides_changing_one_block_differently_is_a_conflict_on_that_page(case, data):
    docs, base, a, b = case
    # A paragraph both edited versions still have, on a page both still have.
    candidates = []
    for entry in _walk(a["pages"]):
        if "documentId" not in entry:
            continue
        other = next((e for e in _walk(b["pages"]) if e["id"] == entry["id"]), None)
        if other is None or "documentId" not in other:
            continue
        theirs = {x["key"] for x in _blocks(docs.blobs[other["documentId"]]["nodes"])
                  if x["type"] == "paragraph"}
        candidates += [(entry["id"], x["key"]) for x in _blocks(docs.blobs[entry["documentId"]]["nodes"])
                       if x["type"] == "paragraph" and x["key"] in theirs and x["key"][0] not in "AB"]
    assume(candidates)
    page_id, key = data.draw(st.sampled_from(candidates))
    for side, label in ((a, "A"), (b, "B")):
        entry = find(side, page_id)
        document = docs.load(entry["documentId"])
        for block in _blocks(document["nodes"]):
            if block["key"] == key:
                block["nodes"][0]["leaves"][0]["text"] = f"rewritten by {label}"
        entry["documentId"] = docs.put(document)
    for ours, theirs in ((a, b), (b, a)):
        with pytest.raises(MergeConflict) as caught:
            docs.merge(base, ours, theirs)
        assert (page_id, f"both sides edited block '{key}'") in [
            (c.page_id, c.reason) for c in caught.value.conflicts]
