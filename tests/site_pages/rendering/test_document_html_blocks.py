"""Each block type the Markdown converter produces, rendered (text blocks: test_document_html.py)."""

from __future__ import annotations

import pytest

from bindery.engines.site_pages.document_html import Heading
from tests.data_paths import ROOT
from tests.site_pages.rendering.support import (
    Resolver,
    TitledResolver,
    block,
    document,
    from_markdown,
    markdown_document,
    paragraph,
    render,
    text,
    tree,
)


def _classes(element) -> list[str]:
    return (element.get("class") or "").split()


# --- code -----------------------------------------------------------------------------------------
def test_code_is_highlighted_with_pygments_classes_one_span_per_line():
    body = from_markdown("```python\ndef f(x):\n    return '<b>'\n```\n")
    code = body.find("div/pre/code")
    assert code.get("data-language") == "python"
    lines = code.findall("span")
    assert [line.text_content() for line in lines] == ["def f(x):", "    return '<b>'"]
    assert lines[0].find("span[@class='k']").text == "def"
    assert lines[0].find("span[@class='nf']").text == "f"
    assert lines[1].find("span[@class='s1']") is not None  # the string, still escaped text
    assert "bd-code-numbered" not in _classes(body[0])


def test_code_title_wrap_line_numbers_and_highlighted_lines():
    source = (
        '{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n'
        '<pre class="language-js"><code class="lang-js"><strong>const a = 1;\n</strong>const b = 2;\n'
        "</code></pre>\n{% endcode %}\n"
    )
    wrapper = from_markdown(source)[0]
    assert set(_classes(wrapper)) == {"bd-code", "bd-code-wrap", "bd-code-numbered"}
    assert wrapper.find("div[@class='bd-code-title']").text == "app.js"
    lines = wrapper.findall("pre/code/span")
    assert [_classes(line) for line in lines] == [["bd-line", "bd-line-highlighted"], ["bd-line"]]


def test_code_in_an_unknown_language_is_plain_text_and_a_line_with_inlines_keeps_them():
    body = from_markdown("```nosuchlang\na < b\n```\n")
    assert body.find("div/pre/code/span").text == "a < b"
    doc = document(
        block(
            "code",
            [
                block("code-line", [text("key: 1")]),
                block(
                    "code-line",
                    [
                        text("name: "),
                        {"object": "inline", "type": "expression", "data": {"expression": "space.vars.n"}},
                    ],
                ),
            ],
            syntax="yaml",
        )
    )
    rendered = tree(doc, scope={"space": {"vars": {"n": "bindery"}}})
    assert [line.text_content() for line in rendered.findall("div/pre/code/span")] == [
        "key: 1",
        "name: bindery",
    ]


def test_pygments_is_imported_only_when_a_code_block_is_rendered():
    import subprocess
    import sys

    script = (
        "import sys\nfrom bindery.engines.site_pages.document_html import render_document\n"
        "from tests.site_pages.rendering.support import Resolver, document, paragraph, block, text\n"
        "render_document(document(paragraph('x')), links=Resolver())\n"
        "print('pygments' in sys.modules)\n"
        "render_document(document(block('code', [block('code-line', [text('x')])], syntax='py')),"
        " links=Resolver())\n"
        "print('pygments' in sys.modules)\n"
    )
    env = {"PYTHONPATH": f"{ROOT / 'layers' / 'shared'}:{ROOT}", "PATH": ""}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "True"]


# --- images and files -----------------------------------------------------------------------------
def test_images_come_from_the_blob_store_with_captions_widths_and_dark_variants():
    body = from_markdown(
        '<figure><img src=".gitbook/assets/a.png" alt="A" width="50%"><figcaption><p>Cap <strong>b</strong>'
        "</p></figcaption></figure>\n\n"
        '<figure><picture><source srcset=".gitbook/assets/dark.png" media="(prefers-color-scheme: dark)">'
        '<img src=".gitbook/assets/light.png" alt="Logo"></picture></figure>\n\n'
        '<div align="left" data-with-frame="true">'
        '<figure><img src=".gitbook/assets/b.png" alt="" width="300">'
        "</figure></div>\n"
    )
    first, themed, framed = body
    img = first.find("figure/img")
    assert (img.get("src"), img.get("alt"), _classes(img)) == ("/files/a.png", "A", ["bd-w-50"])
    assert first.find("figure/figcaption").text_content() == "Cap b"
    assert [(i.get("src"), _classes(i)) for i in themed.findall("figure/img")] == [
        ("/files/light.png", ["bd-light-only"]),
        ("/files/dark.png", ["bd-dark-only"]),
    ]
    assert set(_classes(framed)) == {"bd-images", "bd-images-left", "bd-framed"}
    assert framed.find("figure/img").get("width") == "300"


def test_an_unreachable_image_shows_its_alt_text_and_inline_images_drawings_files_render():
    body = tree(
        document(block("images", [block("image", ref={"kind": "file", "file": "gone"}, alt="Gone")])),
        links=Resolver(unreachable=frozenset({"gone"})),
    )
    assert body.findall(".//img") == []
    assert body.text_content() == "Gone"
    body = from_markdown(
        'Icon <img src=".gitbook/assets/i.png" alt="i" data-size="line"> here\n\n'
        '<img src=".gitbook/assets/s.svg" alt="" class="gitbook-drawing">\n\n'
        '{% file src=".gitbook/assets/report%20final.pdf" %}\n{% endfile %}\n'
    )
    inline_image, drawing, file_link = body.find("p/img"), body.find("figure/img"), body.find("div/a")
    assert (inline_image.get("src"), _classes(inline_image)) == ("/files/i.png", ["bd-inline-image-line"])
    assert drawing.get("src") == "/files/s.svg"
    assert file_link.get("href") == "/files/report%20final.pdf"
    assert file_link.text_content() == "report final.pdf"


# --- embeds, references ---------------------------------------------------------------------------
def test_embeds_are_links_unless_allowed_then_sandboxed_https_iframes():
    source = (
        '{% embed url="https://www.youtube.com/watch?v=abc_DEF-1" %}\n\n'
        '{% embed url="http://plain.example" %}\n'
    )
    links = from_markdown(source)
    assert links.findall(".//iframe") == []
    assert [(a.get("href"), a.get("rel")) for a in links.findall(".//a")] == [
        ("https://www.youtube.com/watch?v=abc_DEF-1", "noopener noreferrer"),
        ("http://plain.example", "noopener noreferrer"),
    ]
    framed = from_markdown(source, allow_embeds=True)
    (iframe,) = framed.findall(".//iframe")  # the http one stays a link
    assert iframe.get("src") == "https://www.youtube-nocookie.com/embed/abc_DEF-1"
    assert iframe.get("sandbox") == "allow-scripts allow-popups allow-presentation"
    assert "allow-same-origin" not in iframe.get("sandbox")


def test_content_refs_link_to_pages_anchors_files_spaces_and_urls():
    refs = [
        {"kind": "page", "page": "intro"},
        {"kind": "anchor", "page": "intro", "anchor": "setup"},
        {"kind": "file", "file": "f.pdf"},
        {"kind": "space", "space": "s2"},
        {"kind": "url", "url": "https://example.com/x"},
        {"kind": "page", "page": "p", "space": "s3"},
    ]
    body = tree(document(*(block("content-ref", ref=ref) for ref in refs)), links=TitledResolver())
    assert [(a.get("href"), a.text_content()) for a in body.findall("div/a")] == [
        ("/site/intro", "Title of intro"),
        ("/site/intro#setup", "Title of intro \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} setup"),
        ("/files/f.pdf", "f.pdf"),
        ("/spaces/s2", "s2"),
        ("https://example.com/x", "https://example.com/x"),
        ("/spaces/s3/p", "Title of p"),
    ]


class _OpaqueUrls(Resolver):
    """URLs that name ids, not names (as a site's internal routes do), with the optional lookups."""

    def page_url(self, *, space_id: str | None, page_id: str, anchor: str | None) -> str | None:
        return f"/~site/page/{page_id}"

    def file_url(self, *, space_id: str | None, file_id: str) -> str | None:
        return f"/~site/files/{file_id}"

    def file_name(self, *, space_id: str | None, file_id: str) -> str | None:
        return {"f1": "Report 2026.pdf"}.get(file_id)

    def page_title(self, *, space_id: str | None, page_id: str) -> str | None:
        return {"p1": "Install <guide>"}.get(page_id)


def test_titles_and_file_names_come_from_the_resolver_when_it_offers_them():
    files = block(
        "table",
        definition={"c": {"id": "c", "title": "Files", "type": "files"}},
        records={"r": {"orderIndex": "a", "values": {"c": ["f1", "f2"]}}},
        view={"type": "grid"},
    )
    doc = document(
        block("file", ref={"kind": "file", "file": "f1"}),
        block("file", ref={"kind": "file", "file": "f2"}),
        block("content-ref", ref={"kind": "page", "page": "p1"}),
        block("content-ref", ref={"kind": "anchor", "page": "p1", "anchor": "step-2"}),
        block("content-ref", ref={"kind": "page", "page": "p2"}),
        files,
    )
    links = tree(doc, links=_OpaqueUrls()).findall(".//a")
    assert [(a.get("href"), a.text_content()) for a in links] == [
        ("/~site/files/f1", "Report 2026.pdf"),
        ("/~site/files/f2", "f2"),
        ("/~site/page/p1", "Install <guide>"),
        ("/~site/page/p1", "Install <guide> \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} step-2"),
        ("/~site/page/p2", "p2"),
        ("/~site/files/f1", "Report 2026.pdf"),
        ("/~site/files/f2", "f2"),
    ]


def test_reusable_content_is_rendered_in_place_and_cycles_stop():
    shared = markdown_document("## Shared heading\n\nShared **text**.\n")
    looping = document(
        paragraph("loop"),
        block("reusable-content", ref={"kind": "reusable-content", "reusableContent": "loop"}),
    )
    doc = markdown_document(
        '{% include ".gitbook/includes/shared.md" %}\n\n'
        '{% include ".gitbook/includes/loop.md" %}\n\n{% include ".gitbook/includes/gone.md" %}\n'
    )
    rendered = render(doc, links=Resolver(reusable={"shared": shared, "loop": looping}))
    body = tree(doc, links=Resolver(reusable={"shared": shared, "loop": looping}))
    included = body.findall("div")
    assert [div.text_content() for div in included] == ["Shared heading#Shared text.", "loop"]
    assert rendered.headings == (Heading(id="shared-heading", text="Shared heading", level=1),)


def test_openapi_and_integration_blocks_name_what_they_show():
    body = from_markdown(
        '{% openapi src="https://example.com/spec.json" path="/pets" method="get" %}\n'
        "[https://example.com/spec.json](https://example.com/spec.json)\n{% endopenapi %}\n\n"
        '{% @mermaid/diagram content="graph TD; A-->B" %}\n'
    )
    api, integration = body
    assert api.find("a").get("href") == "https://example.com/spec.json"
    assert api.find("a/span").text == "GET"
    assert api.find("a/code").text == "/pets"
    assert integration.text_content() == "mermaid/diagram"


# --- layout ---------------------------------------------------------------------------------------
def test_tabs_are_radio_inputs_with_labels_the_first_checked():
    body = from_markdown(
        '{% tabs %}\n{% tab title="Ruby" %}\nruby text\n{% endtab %}\n\n'
        '{% tab title="Go" %}\ngo text\n{% endtab %}\n{% endtabs %}\n\n'
        '{% tabs %}\n{% tab title="Again" %}\nagain\n{% endtab %}\n{% endtabs %}\n'
    )
    first, second = body
    inputs = first.findall("input")
    labels = first.findall("label")
    assert [(i.get("type"), i.get("checked") is not None) for i in inputs] == [
        ("radio", True),
        ("radio", False),
    ]
    assert len({i.get("name") for i in inputs}) == 1
    assert [label.get("for") for label in labels] == [i.get("id") for i in inputs]
    assert [label.text for label in labels] == ["Ruby", "Go"]
    assert [panel.text_content() for panel in first.findall("div")] == ["ruby text", "go text"]
    ids = [element.get("id") for element in body.iter() if element.get("id")]
    assert len(ids) == len(set(ids))
    assert second.find("input").get("name") != inputs[0].get("name")


def test_steppers_columns_and_expandables():
    body = from_markdown(
        "{% stepper %}\n{% step %}\n## One\n\nfirst\n{% endstep %}\n\n{% step %}\n## Two\n"
        "{% endstep %}\n{% endstepper %}\n\n"
        '{% columns %}\n{% column width="50%" %}\nleft\n{% endcolumn %}\n\n'
        '{% column valign="middle" %}\nright\n{% endcolumn %}\n{% endcolumns %}\n'
    )
    stepper, columns = body
    assert stepper.tag == "ol"
    assert [step.find("h2").get("id") for step in stepper.findall("li")] == ["one", "two"]
    assert [(_classes(col), col.text_content()) for col in columns.findall("div")] == [
        (["bd-column", "bd-w-50"], "left"),
        (["bd-column", "bd-valign-middle"], "right"),
    ]


@pytest.mark.parametrize(
    ("scope", "shown"),
    [
        (None, ["without"]),
        ({"visitor": {"claims": {"unsigned": {"beta": True}}}}, ["with"]),
        ({"visitor": {"claims": {"unsigned": {"beta": False}}}}, ["without"]),
    ],
)
def test_if_blocks_show_their_content_only_when_the_condition_holds(scope, shown):
    body = from_markdown(
        "{% if visitor.claims.unsigned.beta %}\nwith\n{% endif %}\n\n"
        "{% if !visitor.claims.unsigned.beta %}\nwithout\n{% endif %}\n\n"
        "{% if visitor.claims.( %}\nbroken condition\n{% endif %}\n",
        scope=scope,
    )
    assert [p.text for p in body.findall("p")] == shown


def test_math_blocks_are_text_in_code_and_dividers_rules():
    body = from_markdown("$$\nx < y^2\n$$\n\n***\n")
    assert body.find("pre/code").text == "x < y^2"
    assert [element.tag for element in body] == ["pre", "hr"]


# --- tables ---------------------------------------------------------------------------------------
def test_a_gfm_table_is_a_table_with_header_alignment_and_cell_content():
    body = from_markdown("| Name | Size |\n| :--- | ---: |\n| **a** | 1 |\n| [b](b.md) | 2 |\n")
    table = body.find(".//table")
    assert [th.text for th in table.findall("thead/tr/th")] == ["Name", "Size"]
    rows = table.findall("tbody/tr")
    assert [[td.text_content() for td in row] for row in rows] == [["a", "1"], ["b", "2"]]
    assert rows[1][0].find(".//a").get("href") == "/site/b"
    assert _classes(rows[0][1]) == ["bd-align-right"]


def test_rich_tables_render_each_column_type_in_record_order():
    columns = {
        "t": {"id": "t", "title": "Text", "type": "text"},
        "n": {"id": "n", "title": "N", "type": "number"},
        "c": {"id": "c", "title": "C", "type": "checkbox"},
        "s": {
            "id": "s",
            "title": "S",
            "type": "select",
            "multiple": True,
            "options": [{"value": "o1", "label": "One", "color": "blue"}],
        },
        "r": {"id": "r", "title": "R", "type": "rating", "max": 3},
        "f": {"id": "f", "title": "F", "type": "files"},
        "h": {"id": "h", "title": "Hidden", "type": "text"},
    }
    records = {
        "second": {"orderIndex": "b", "values": {"t": "frag2", "n": 2.5, "c": False}},
        "third": {"orderIndex": "c", "values": {"t": "no such <fragment>", "n": 1234567.0}},
        "first": {
            "orderIndex": "a",
            "values": {
                "t": "frag1",
                "n": 3,
                "c": True,
                "s": ["o1", "zz"],
                "r": 2,
                "f": ["x.pdf"],
                "h": "frag1",
            },
        },
    }
    table = block(
        "table",
        definition=columns,
        records=records,
        view={"type": "grid", "columns": ["t", "n", "c", "s", "r", "f"]},
    )
    table["fragments"] = [
        {"object": "fragment", "fragment": "frag1", "nodes": [paragraph("row one")]},
        {"object": "fragment", "fragment": "frag2", "nodes": [paragraph("row two")]},
    ]
    rows = tree(document(table)).findall(".//tbody/tr")
    assert [th.text for th in tree(document(table)).findall(".//th")] == ["Text", "N", "C", "S", "R", "F"]
    first, second, third = rows
    assert [td.text_content() for td in first] == [
        "row one",
        "3",
        "",
        "One",
        "\N{BLACK STAR}" * 2 + "\N{WHITE STAR}",
        "x.pdf",
    ]
    assert first[2].find("input").get("checked") is not None
    assert first[5].find(".//a").get("href") == "/files/x.pdf"
    assert [td.text_content() for td in second][:2] == ["row two", "2.5"]
    assert second[2].find("input").get("checked") is None
    assert [td.text_content() for td in third][:2] == ["no such <fragment>", "1234567"]


def test_card_tables_have_covers_targets_and_text():
    body = from_markdown(
        '<table data-view="cards"><thead><tr><th></th>'
        '<th data-type="content-ref" data-hidden data-card-target></th>'
        '<th data-type="files" data-hidden data-card-cover></th></tr></thead><tbody><tr>'
        '<td><strong>Start</strong></td><td><a href="start.md">start.md</a></td>'
        '<td><a href=".gitbook/assets/c.png">c.png</a></td>'
        "</tr></tbody></table>\n"
    )
    (card,) = body.findall("div/div")
    assert card.find("div/img").get("src") == "/files/c.png"
    assert card.find("a").get("href") == "/site/start"
    assert card.text_content() == "Start"


def test_heading_text_in_table_of_contents_is_the_plain_text():
    rendered = render(document(block("heading-1", [text("A "), text("bold", "bold"), text(" <tag>")])))
    assert rendered.headings == (Heading(id="a-bold-tag", text="A bold <tag>", level=1),)
