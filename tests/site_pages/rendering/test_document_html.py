"""Text blocks, headings and marks as HTML (the other block types: test_document_html_blocks.py)."""

from __future__ import annotations

from bindery.engines.site_pages.document_html import Heading
from tests.site_pages.rendering.support import (
    block,
    document,
    from_markdown,
    inline,
    paragraph,
    render,
    text,
    tree,
)


def test_paragraph_text_is_escaped_and_line_breaks_become_br():
    body = tree(document(paragraph("1 < 2 & <b>not bold</b>\nnext line")))
    (p,) = body.findall("p")
    assert p.text_content() == "1 < 2 & <b>not bold</b>next line"
    assert [child.tag for child in p] == ["br"]


def test_each_mark_has_its_element_and_marks_nest():
    body = from_markdown("**b** _i_ `c` ~~s~~ <kbd>K</kbd> x<sup>2</sup> H<sub>2</sub> _**bi**_\n")
    p = body.find("p")
    found = {element.tag: element.text_content() for element in p.iter() if element is not p}
    assert found == {"strong": "bi", "em": "bi", "code": "c", "s": "s", "kbd": "K", "sup": "2", "sub": "2"}
    assert p.xpath("em/strong")[0].text == "bi"  # italic outside bold, as GitBook writes them


def test_colour_marks_become_theme_classes_and_unknown_colours_nothing():
    colours = {"object": "mark", "type": "color", "data": {"text": "$primary", "background": "yellow"}}
    hostile = {
        "object": "mark",
        "type": "color",
        "data": {"text": "red; background:url(x)", "background": 3},
    }
    body = tree(document(paragraph(text("both", colours), text("odd", hostile))))
    spans = body.findall(".//span")
    assert [span.get("class") for span in spans] == ["bd-color-primary bd-bg-yellow"]
    assert body.text_content() == "bothodd"


def test_headings_get_levels_ids_and_self_links():
    rendered = render(from_markdown_document("## Install it\n\n### Then `run`\n\n#### Last one\n"))
    body = tree(from_markdown_document("## Install it\n\n### Then `run`\n\n#### Last one\n"))
    assert [(h.tag, h.get("id")) for h in body] == [
        ("h2", "install-it"),
        ("h3", "then-run"),
        ("h4", "last-one"),
    ]
    assert body[0].find("a").get("href") == "#install-it"
    assert rendered.headings == (
        Heading(id="install-it", text="Install it", level=1),
        Heading(id="then-run", text="Then run", level=2),
        Heading(id="last-one", text="Last one", level=3),
    )


def test_heading_ids_come_from_data_id_then_meta_id_and_stay_unique():
    doc = document(
        block("heading-1", [text("Setup")], id="custom"),
        {**block("heading-2", [text("Meta")]), "meta": {"id": "from-meta"}},
        block("heading-2", [text("Setup")]),
        block("heading-2", [text("Setup")]),
        block("heading-3", [text("Custom")], id="custom"),
        block("heading-3", [text("?!")]),
    )
    assert [h.id for h in render(doc).headings] == [
        "custom",
        "from-meta",
        "setup",
        "setup-1",
        "custom-1",
        "section",
    ]


def test_lists_ordered_bullet_and_tasks():
    body = from_markdown(
        "* one\n* two\n  1. nested\n\n<!---->\n\n3. three\n4. four\n\n<!---->\n\n* [x] done\n* [ ] open\n"
    )
    ul, ol, tasks = body
    assert (ul.tag, [li.text_content() for li in ul.xpath("li/p")]) == ("ul", ["one", "two"])
    assert ul.xpath("li/ol/li")[0].text_content() == "nested"
    assert (ol.tag, ol.get("start"), len(ol)) == ("ol", "3", 2)
    boxes = tasks.xpath("li/input")
    assert [
        (box.get("type"), box.get("checked") is not None, box.get("disabled") is not None) for box in boxes
    ] == [("checkbox", True, True), ("checkbox", False, True)]


def test_quote_hint_and_expandable():
    body = from_markdown(
        '> quoted\n\n{% hint style="warning" %}\nCareful\n{% endhint %}\n\n'
        '{% hint style="nonsense" %}\nUnknown style\n{% endhint %}\n\n'
        "<details>\n\n<summary>More <strong>here</strong></summary>\n\n"
        "Hidden body\n\n</details>\n"
    )
    quote, warning, fallback, details = body
    assert (quote.tag, quote.text_content()) == ("blockquote", "quoted")
    assert warning.get("class") == "bd-hint bd-hint-warning"
    assert warning.text_content() == "Careful"
    assert fallback.get("class") == "bd-hint bd-hint-info"
    assert details.tag == "details"
    assert details.get("open") is None
    assert details.find("summary").text_content() == "More here"
    assert details.find("summary/strong") is not None
    assert details.xpath("div/p")[0].text == "Hidden body"


def test_inline_links_mentions_and_buttons():
    body = from_markdown(
        "[page](guide.md) [anchor](guide.md#part) [here](#top) [out](https://example.com) "
        '[guide.md](guide.md "mention") '
        '<a href="guide.md" class="button secondary">Go</a>\n'
    )
    links = body.findall(".//a")
    assert [(a.get("href"), a.get("rel"), a.text_content()) for a in links] == [
        ("/site/guide", None, "page"),
        ("/site/guide#part", None, "anchor"),
        ("#top", None, "here"),
        ("https://example.com", "noopener noreferrer", "out"),
        ("/site/guide", None, "guide"),
        ("/site/guide", None, "Go"),
    ]
    assert links[4].get("class") == "bd-mention"
    assert links[5].get("class") == "bd-button bd-button-secondary"


def test_unreachable_references_are_plain_text():
    from tests.site_pages.rendering.support import Resolver

    doc = document(
        paragraph(
            inline("link", [text("gone")], ref={"kind": "page", "page": "secret"}),
            inline("link", [text("nowhere")], ref={"kind": "user", "user": "u1"}),
        )
    )
    body = tree(doc, links=Resolver(unreachable=frozenset({"secret"})))
    assert body.findall(".//a") == []
    assert body.text_content() == "gonenowhere"


def test_emoji_icons_inline_math_and_expressions():
    body = from_markdown(
        ':tada: <i class="fa-github">:github:</i> $$e=mc^2$$ '
        '<code class="expression">space.vars.version</code>\n'
    )
    p = body.find("p")
    assert p.find("span[@class='bd-emoji']").text == "\N{PARTY POPPER}"
    assert p.find("span[@title='github']").get("class") == "bd-icon"
    assert p.find("code[@class='bd-math']").text == "e=mc^2"
    scoped = from_markdown(
        '<code class="expression">space.vars.version</code>\n',
        scope={"space": {"vars": {"version": "2.1"}}},
    )
    assert scoped.text_content() == "2.1"


def from_markdown_document(source: str) -> dict:
    from bindery.engines.content.markdown import markdown_to_document

    return markdown_to_document(source).document


def test_unknown_types_show_their_text_and_never_fail():
    doc = document(
        block("future-block", [paragraph("kept text")]),
        block("future-leaf", [text("inline text")]),
        paragraph(inline("future-inline", [text("inner")]), inline("void-future")),
        {"object": "block", "type": "paragraph", "nodes": "not a list", "data": []},
        "not a node",
        {"object": "text", "leaves": [{"text": 5}, {"text": "stray"}]},
    )
    body = tree(doc)
    assert body.text_content() == "kept textinline textinnerstray"


def test_rendering_is_deterministic_so_anchors_are_stable():
    doc = from_markdown_document(
        "## Setup\n\n## Setup\n\n{% tabs %}\n{% tab title=\"A\" %}\nx\n{% endtab %}\n{% endtabs %}\n\n"
        "Note<a data-footnote-ref href=\"#user-content-fn-1\">here</a>.\n\n[^1]: The note.\n"
    )
    first, second = render(doc), render(doc)
    assert first == second
    assert [h.id for h in first.headings] == ["setup", "setup-1"]
