"""The semantic changes between two trees (content.changes), as `GET …/change-requests/{id}/changes`
lists them."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from hypothesis import given, settings

from bindery.engines.content.changes import diff_trees
from tests.content.test_merge import find, page, tree
from tests.content.test_merge_properties import cases
from tests.data_paths import REFERENCE_SPEC

SPEC = REFERENCE_SPEC
FILE = {"id": "f1", "name": "logo.png", "contentType": "image/png", "size": 3, "digest": "a" * 64}
DIGEST = "b" * 64


def file_url(entry):
    return f"https://files.example/{entry['digest'][:4]}/{entry['name']}"


@pytest.fixture
def base():
    return tree(page("intro", documentId=DIGEST), page("guide", page("install"), page("usage")), page("faq"),
                files=[FILE], contents=[{"id": "rc", "title": "Snippet", "document": DIGEST}],
                variables={"version": "1"})


def wire(base, head):
    return [change.to_wire(file_url) for change in diff_trees(base, head)]


def test_equal_trees_have_no_changes(base):
    assert diff_trees(base, copy.deepcopy(base)) == []


@settings(max_examples=50, deadline=None)
@given(cases())
def test_a_generated_tree_has_no_changes_from_itself(case):
    _, value, _ = case
    assert diff_trees(value, value) == []


def test_created_and_deleted_pages(base):
    head = copy.deepcopy(base)
    find(head, "guide")["pages"].append(page("upgrade"))
    head["pages"].pop()  # faq
    assert wire(base, head) == [
        {"type": "page_created", "page": {"id": "upgrade", "type": "document", "title": "UPGRADE",
                                          "path": "guide/upgrade"}},
        {"type": "page_deleted", "page": {"id": "faq", "type": "document", "title": "FAQ", "path": "faq"}},
    ]


def test_edited_page_lists_each_changed_attribute(base):
    head = copy.deepcopy(base)
    find(head, "intro").update(title="Welcome", documentId="c" * 64, emoji="1f600", hidden=True,
                               updatedAt="2024-01-01T00:00:00.000Z")
    assert wire(base, head) == [{
        "type": "page_edited",
        "page": {"id": "intro", "type": "document", "title": "Welcome", "path": "intro"},
        "attributes": {"title": {"before": "INTRO", "after": "Welcome"},
                       "document": {"before": DIGEST, "after": "c" * 64},
                       "emoji": {"after": "1f600"}, "hidden": {"after": True}},
    }]


def test_moved_pages_name_their_parents_and_siblings_shifted_by_an_insert_are_not_moved(base):
    head = copy.deepcopy(base)
    usage = find(head, "guide")["pages"].pop()
    head["pages"].insert(0, usage)  # usage: guide -> top level; intro, guide, faq only shift
    moved_in_place = copy.deepcopy(base)
    moved_in_place["pages"].append(moved_in_place["pages"].pop(0))  # intro to the end
    assert wire(base, head) == [{
        "type": "page_moved", "page": {"id": "usage", "type": "document", "title": "USAGE", "path": "usage"},
        "parent": {"before": {"id": "guide", "type": "document", "title": "GUIDE", "path": "guide"}},
    }]
    assert [(c.type, c.subject["id"]) for c in diff_trees(base, moved_in_place)] == [("page_moved", "intro")]


def test_files_reusable_contents_and_variables(base):
    head = copy.deepcopy(base)
    head["files"] = [{**FILE, "name": "brand.png", "digest": "d" * 64},
                     {**FILE, "id": "f2", "name": "new.png"}]
    head["reusableContents"] = []
    head["variables"] = {"version": "2", "added": 1}
    assert wire(base, head) == [
        {"type": "file_edited",
         "file": {"id": "f1", "name": "brand.png", "contentType": "image/png",
                  "downloadURL": "https://files.example/dddd/brand.png"},
         "attributes": {"name": {"before": "logo.png", "after": "brand.png"},
                        "downloadURL": {"before": "https://files.example/aaaa/logo.png",
                                        "after": "https://files.example/dddd/brand.png"}}},
        {"type": "file_created", "file": {"id": "f2", "name": "new.png", "contentType": "image/png",
                                          "downloadURL": "https://files.example/aaaa/new.png"}},
        {"type": "reusable_content_deleted",
         "reusableContent": {"id": "rc", "title": "Snippet", "document": DIGEST}},
        {"type": "variables_edited",
         "variables": {"version": {"before": "1", "after": "2"}, "added": {"after": 1}}},
    ]


def test_a_layout_renderer_completes_layouts(base):
    head = copy.deepcopy(base)
    find(head, "faq")["layout"] = "landing"
    [change] = diff_trees(base, head)
    rendered = change.to_wire(file_url, layout=lambda stored: {"preset": stored})
    assert rendered["attributes"] == {"layout": {"after": {"preset": "landing"}}}


@pytest.mark.skipif(not SPEC.exists(), reason="the spec copy is not in this checkout")
def test_every_change_kind_matches_its_schema(base):
    schemas = json.loads(SPEC.read_text())["components"]["schemas"]
    head = copy.deepcopy(base)
    find(head, "install")["title"] = "Setup"
    head["pages"].insert(0, find(head, "guide")["pages"].pop())
    head["pages"].append(page("new"))
    head["pages"].remove(find(head, "faq"))
    head["files"], head["reusableContents"] = [{**FILE, "size": 9}], [{"id": "rc2", "title": "New"}]
    head["variables"] = {}
    changes = wire(base, head)
    kinds = {
        "page_created": "RevisionSemanticChangePageCreated",
        "page_edited": "RevisionSemanticChangePageEdited",
        "page_deleted": "RevisionSemanticChangePageDeleted", "page_moved": "RevisionSemanticChangePageMoved",
        "file_edited": "RevisionSemanticChangeFileEdited",
        "reusable_content_created": "RevisionSemanticChangeReusableContentCreated",
        "reusable_content_deleted": "RevisionSemanticChangeReusableContentDeleted",
        "variables_edited": "RevisionSemanticChangeVariablesEdited",
    }
    assert sorted({c["type"] for c in changes}) == sorted(kinds)
    # The spec's `attributes` is a oneOf of three schemas that all accept any document page's
    # attributes (none forbids the others' properties), so no instance can match exactly one: check
    # against the one for the page's type.
    edited = copy.deepcopy(schemas["RevisionSemanticChangePageEdited"])
    edited["properties"]["attributes"] = {"$ref": "#/components/schemas/RevisionPageDocumentChangeAttributes"}
    schemas["RevisionSemanticChangePageEdited"] = edited
    for change in changes:
        jsonschema.validate(change, {**schemas[kinds[change["type"]]], "components": {"schemas": schemas}})
