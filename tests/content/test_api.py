"""The public API's behaviour around the edges: resolvers, paths, front matter, titles, warnings."""

from __future__ import annotations

from bindery.engines.content.markdown import (
    canonicalize,
    document_to_markdown,
    markdown_to_document,
    model,
    strip_keys,
)
from tests.content import support


def test_without_resolvers_references_stay_urls():
    page = markdown_to_document(
        "[a](other.md#install) ![](<../.gitbook/assets/a b.png>)\n\n"
        '{% file src="../.gitbook/assets/syslog%20%282%29.png" %}\n{% endfile %}\n'
    )
    paragraph, file_block = page.document["nodes"]
    assert paragraph["nodes"][1]["data"]["ref"] == {"kind": "url", "url": "other.md#install"}
    assert paragraph["nodes"][3]["data"]["ref"] == {"kind": "url", "url": "../.gitbook/assets/a b.png"}
    # A file block can only hold a file reference: unresolved, the path as written is its id.
    assert file_block["data"]["ref"] == {"kind": "file", "file": "../.gitbook/assets/syslog%20%282%29.png"}
    assert page.links == ["other.md#install"]
    assert page.files == ["../.gitbook/assets/a b.png", "../.gitbook/assets/syslog%20%282%29.png"]


def test_resolvers_see_targets_as_written():
    seen: list[tuple[str, str]] = []

    def link(url):
        seen.append(("link", url))
        return {"kind": "page", "page": "p1"} if url.startswith("other.md") else None

    def file(src):
        seen.append(("file", src))
        return {"kind": "file", "file": "f1"}

    page = markdown_to_document(
        '[a](other.md) [b](https://x.org/a%20b) <img src="x y.png">', resolve_link=link, resolve_file=file
    )
    assert seen == [("link", "other.md"), ("link", "https://x.org/a%20b"), ("file", "x y.png")]
    nodes = page.document["nodes"][0]["nodes"]
    assert [nodes[i]["data"]["ref"] for i in (1, 3, 5)] == [
        {"kind": "page", "page": "p1"},
        {"kind": "url", "url": "https://x.org/a%20b"},
        {"kind": "file", "file": "f1"},
    ]


def test_paths_write_references_and_fall_back_like_gitbook():
    document = {
        "object": "document",
        "data": {},
        "nodes": [
            model.paragraph(
                [
                    model.inline("link", {"ref": {"kind": "page", "page": "p1"}}, [model.text("page")]),
                    model.text(" "),
                    model.inline("link", {"ref": {"kind": "file", "file": "f1"}}, [model.text("file")]),
                ]
            )
        ],
    }
    assert document_to_markdown(document) == "[page](broken-reference) [file](f1)\n"
    written = document_to_markdown(
        document,
        page_path=lambda ref: f"{ref['page']}.md",
        file_path=lambda file_id: f".gitbook/assets/{file_id}.png",
    )
    assert written == "[page](p1.md) [file](.gitbook/assets/f1.png)\n"


def test_front_matter_title_and_empty_pages():
    page = markdown_to_document("---\ndescription: 'A: colon'\nhidden: true\ndate: 2024-01-02\n---\n")
    assert page.front_matter == {"description": "A: colon", "hidden": True, "date": "2024-01-02"}
    assert (page.title, page.description, page.hidden, page.icon, page.layout) == (
        None,
        "A: colon",
        True,
        None,
        {},
    )
    assert page.document == {"object": "document", "data": {}, "nodes": []}
    assert document_to_markdown(page.document, front_matter=page.front_matter) == (
        "---\ndescription: 'A: colon'\nhidden: true\ndate: '2024-01-02'\n---\n\n"
    )
    assert document_to_markdown({"object": "document", "data": {}, "nodes": []}) == ""


def test_invalid_front_matter_is_reported_not_raised():
    page = markdown_to_document("---\ndescription: [unclosed\n---\n\n# Title\n")
    assert page.front_matter == {}
    assert page.title == "Title"
    assert page.warnings[0].startswith("the front matter is not valid YAML")


def test_what_cannot_be_represented_is_reported():
    page = markdown_to_document(
        "{% mystery %}\n\n{% endhint %}\n\n"
        'Text[^9] and <a data-footnote-ref href="#user-content-fn-9">this</a>\n\n<iframe src=x></iframe>\n'
    )
    assert page.warnings == [
        "{% mystery %} was not understood and was left out",
        "a closing {% endhint %} without its opening tag was ignored",
        "HTML that GitBook does not write was kept as text",
        "the footnote [^9] has no definition",
    ]
    # Without a definition, `[^9]` is text, as in CommonMark; GitBook's own form is still an annotation.
    assert "[^9]" in model.plain_text(page.document["nodes"][0]["nodes"])


def test_canonicalize_normalizes_what_markdown_cannot_keep():
    bold, italic = {"object": "mark", "type": "bold"}, {"object": "mark", "type": "italic"}
    document = {
        "object": "document",
        "data": {},
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "key": "random",
                "isVoid": False,
                "data": {},
                "nodes": [
                    {"object": "text", "leaves": [{"object": "leaf", "text": "a", "marks": [bold, italic]}]},
                    {"object": "text", "leaves": [{"object": "leaf", "text": "b", "marks": [italic, bold]}]},
                ],
            }
        ],
    }
    canonical = canonicalize(document)
    assert strip_keys(canonical)["nodes"][0]["nodes"] == [
        {"object": "text", "leaves": [{"object": "leaf", "text": "ab", "marks": [italic, bold]}]}
    ]
    assert support.parse(support.render(document)).document == canonical


def test_table_ids_are_renumbered():
    page = support.parse((support.GOLDEN_DIR / "table-html.md").read_text())
    table = page.document["nodes"][0]
    data = table["data"]
    renamed = {"c1": "kX9", "r1": "row-a"}
    shuffled = {
        **table,
        "data": {
            **data,
            "definition": {
                renamed.get(k, k): {**v, "id": renamed.get(k, k)} for k, v in data["definition"].items()
            },
            "view": {
                **data["view"],
                "columns": [renamed.get(c, c) for c in data["view"]["columns"]],
                "columnWidths": {"kX9": 200},
            },
            "records": {
                renamed.get(r, r): {**rec, "values": {renamed.get(c, c): v for c, v in rec["values"].items()}}
                for r, rec in data["records"].items()
            },
        },
    }
    assert canonicalize({**page.document, "nodes": [shuffled]}) == page.document


def test_a_footnote_that_refers_to_itself_ends_and_the_reference_stays_text():
    """A definition that refers to its own footnote, directly or through another, would expand without
    end (found by the property tests: the parse never returned). The reference inside stays text."""
    for text in ("x[^1]\n\n[^1]: see y[^1]\n", "x[^1]\n\n[^1]: see y[^2]\n\n[^2]: and z[^1]\n",
                 "[^1]: =a[^1]: $$\n<p>[^1]: "):
        first = support.parse(text)
        markdown = support.render(first)
        assert support.parse(markdown).document == first.document, markdown
    # The first footnote holds the second; the second's reference back to the first is text.
    cycle = support.render(support.parse("x[^1]\n\n[^1]: see y[^2]\n\n[^2]: and z[^1]\n").document)
    assert cycle == ('<a data-footnote-ref href="#user-content-fn-1">x</a>\n\n'
                     '[^1]: see <a data-footnote-ref href="#user-content-fn-2">y</a>\n\n'
                     '[^2]: and z\\[^1\\]\n')
