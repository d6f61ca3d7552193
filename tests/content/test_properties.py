"""Property tests: Markdown round trips of generated documents covering every block and inline type."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bindery.engines.content.markdown import canonicalize, model, strip_keys
from tests.content import strategies, support

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _first_difference(expected, actual, path="document"):
    """Where two documents first differ (keys aside), with both sides, for a readable failure."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key != "key" and strip_keys(expected.get(key)) != strip_keys(actual.get(key)):
                return _first_difference(expected.get(key), actual.get(key), f"{path}.{key}")
    elif isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for index, (left, right) in enumerate(zip(expected, actual, strict=True)):
            if strip_keys(left) != strip_keys(right):
                return _first_difference(left, right, f"{path}[{index}]")
    left, right = (json.dumps(strip_keys(v), ensure_ascii=False)[:1500] for v in (expected, actual))
    return f"{path}:\n  expected {left}\n  actual   {right}"


@SETTINGS
@given(strategies.documents())
def test_generated_documents_are_canonical_and_valid(document):
    assert canonicalize(document) == document
    assert support.schema_errors(document) == []


@SETTINGS
@given(strategies.documents())
def test_document_to_markdown_to_document_is_identity(document):
    markdown = support.render(document)
    page = support.parse(markdown)
    assert page.document == document, markdown + "\n" + _first_difference(document, page.document)
    assert page.warnings == []


@SETTINGS
@given(strategies.documents())
def test_markdown_rendering_is_a_fixpoint(document):
    markdown = support.render(document)
    assert support.render(support.parse(markdown).document) == markdown


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *"ab \n\t*_`~[]()<>#!|\\$:&-+=.{}%1>",
                "{% hint %}",
                "{% endhint %}",
                "<details>",
                "</details>",
                "$$\n",
                "```\n",
                "* ",
                "1. ",
                "| a |\n",
                "<p>",
                "<figure>",
                ":smile:",
                "{% tabs %}",
                "{% tab %}",
                "[^1]",
                "[^1]: ",
            ]
        ),
        max_size=40,
    ).map("".join)
)
# A `<details>` tag in a code span inside an expandable is code: it once opened a nested expandable that
# swallowed the outer one's closing tag, so the body drifted on each trip (html_blocks / block_rules).
@example("<details>\n`<details>`")
@example("<details>\n`<details>`\n</details>")
@example("<details>\n``a `<details>` b``\n</details>")
@example("<details>\n\\`<details>`\n</details>")
def test_any_markdown_reaches_a_fixpoint(text):
    """Markdown → document → Markdown → document: the second document equals the first."""
    first = support.parse(text)
    again = support.parse(support.render(first))
    assert again.document == first.document, support.render(first)


def test_a_block_formula_in_a_table_cells_list_is_kept_inline():
    """A cell is written as HTML, which holds no block formula: the formula of a math block in a cell's
    list is written inline (it was once dropped from the export), and reads back as that inline formula."""
    item = model.block("list-item", [model.block("math", data={"formula": "e^{i\\pi}"})])
    cell = model.fragment("r1c1", [model.paragraph([model.text("a")]), model.block("list-unordered", [item])])
    column = {"id": "c1", "title": "", "type": "text", "textAlignment": "left"}
    table = model.block(
        "table",
        data={
            "view": {"type": "grid", "columns": ["c1"], "hideHeader": False},
            "records": {"r1": {"orderIndex": "V", "values": {"c1": "r1c1"}}},
            "definition": {"c1": column},
        },
        fragments=[cell],
    )
    markdown = support.render({"object": "document", "data": {}, "nodes": [table]})
    assert "<li><p>$$e^{i\\pi}$$</p></li>" in markdown
    formulas = [
        node["data"]["formula"]
        for node in _walk(support.parse(markdown).document)
        if node.get("type") == "inline-math"
    ]
    assert formulas == ["e^{i\\pi}"]


def _walk(node):
    yield node
    for child in [*node.get("nodes", []), *node.get("fragments", [])]:
        yield from _walk(child)


def test_a_footnote_that_opens_with_a_list_keeps_the_lists_blocks():
    """A list item's later lines are indented from its marker: on a footnote's label line the marker sits
    past `[^1]: `, so an item's second block once escaped the list (and a lone divider the item)."""
    items = [
        model.block("list-item", [model.paragraph([model.text("a")]), model.block("divider")]),
        model.block("list-item", [model.block("divider")]),
    ]
    body = [model.block("list-unordered", items)]
    note = model.inline(
        "annotation",
        {},
        [model.text("word")],
        fragments=[model.fragment("annotation-body", body, "annotation-body")],
    )
    document = {
        "object": "document",
        "data": {},
        "nodes": [model.paragraph([model.text("x "), note, model.text("")])],
    }
    markdown = support.render(document)
    page = support.parse(markdown)
    assert strip_keys(page.document) == strip_keys(document), markdown
    assert support.render(page.document) == markdown


@pytest.mark.parametrize("lines", [[], ["x = 1"]])
@pytest.mark.parametrize("kind", ["list-ordered", "list-unordered"])
def test_a_code_block_opening_on_a_list_items_line_keeps_its_column(kind, lines):
    """A fence that opens on a list item's marker line (`1. ````): the search for the group's closing
    tag once missed such an opening and took the item's closing fence, indented, for one, so everything
    after it, closing tags included, was code and the columns were lost (found by Hypothesis)."""
    code = model.block("code", [model.block("code-line", [model.text(line)]) for line in lines])
    listed = model.block(kind, [model.block("list-item", [code])])
    document = canonicalize({"object": "document", "data": {},
                             "nodes": [model.block("columns", [model.block("column", [listed])])]})
    page = support.parse(support.render(document))
    assert page.warnings == []
    assert strip_keys(page.document) == strip_keys(document)


def test_a_quoted_fence_closes_where_the_quote_writes_it():
    """`> ```` opens a fence in a quote and `> ```` closes it: the column's closing tags after it are
    read as tags, not as code."""
    page = support.parse("{% columns %}\n{% column %}\n> ```\n> x = 1\n> ```\n\ntext\n{% endcolumn %}\n"
                         "{% endcolumns %}\n")
    assert page.warnings == []
    assert [node["type"] for node in page.document["nodes"]] == ["columns"]
