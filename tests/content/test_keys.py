"""Block keys: derived from content and position, so that re-importing the same Markdown gives the
same keys and an edit leaves the keys of the untouched blocks alone (what a three-way merge needs)."""

from __future__ import annotations

import copy

from hypothesis import given, settings

from bindery.engines.content.markdown import assign_keys, canonicalize, strip_keys
from tests.content import strategies, support

PAGE = """# Keys

First paragraph.

{% hint style="info" %}
A hint.
{% endhint %}

Same text.

Same text.

* a list
* of items
"""


def _keys(value) -> list[str]:
    if isinstance(value, dict):
        own = [value["key"]] if "key" in value else []
        return own + [k for item in value.values() for k in _keys(item)]
    if isinstance(value, list):
        return [k for item in value for k in _keys(item)]
    return []


def _top_keys(document) -> list[str]:
    return [node["key"] for node in document["nodes"]]


def test_the_same_markdown_gives_the_same_keys():
    assert support.parse(PAGE).document == support.parse(PAGE).document
    keys = _keys(support.parse(PAGE).document)
    assert (
        len(keys) == len(set(keys)) == 10
    )  # 5 top-level blocks, the hint's paragraph, 2 items and their paragraphs
    assert all(len(key) == 12 and key.isalnum() for key in keys)


def test_every_block_inline_and_fragment_has_a_key():
    document = support.parse((support.GOLDEN_DIR / "annotations.md").read_text()).document

    def check(value):
        if isinstance(value, dict):
            if value.get("object") in ("block", "inline", "fragment"):
                assert "key" in value, value
            for item in value.values():
                check(item)
        elif isinstance(value, list):
            for item in value:
                check(item)

    check(document)


def test_an_edit_keeps_the_keys_of_untouched_blocks():
    before = _top_keys(support.parse(PAGE).document)
    inserted = _top_keys(
        support.parse(PAGE.replace("First paragraph.", "New one.\n\nFirst paragraph.")).document
    )
    assert inserted[1:] == before
    edited = _top_keys(support.parse(PAGE.replace("A hint.", "A changed hint.")).document)
    assert [k for i, k in enumerate(edited) if i != 1] == [k for i, k in enumerate(before) if i != 1]
    assert edited[1] != before[1]


def test_identical_blocks_get_distinct_keys_in_order():
    keys = _top_keys(support.parse(PAGE).document)
    assert keys[2] != keys[3]
    swapped = support.parse(
        PAGE.replace("Same text.\n\nSame text.", "Same text.\n\nOther.\n\nSame text.")
    ).document
    assert _top_keys(swapped)[2] == keys[2]
    assert _top_keys(swapped)[4] == keys[3]


@settings(max_examples=100, deadline=None)
@given(strategies.documents())
def test_keys_depend_on_content_only(document):
    rekeyed = assign_keys(strip_keys(copy.deepcopy(document)))
    assert rekeyed == document
    assert canonicalize({**document, "nodes": [{**n, "key": "x"} for n in document["nodes"]]}) == document
