"""Hostile documents: whatever a document holds, the rendered HTML carries no script, style, event handler,
or URL other than http(s), mailto, relative or `#`, every text stays text, and rendering never fails.

Checked on the parsed HTML against an allow-list of the elements and attributes the renderer writes,
on a table of hostile inputs, on generated valid documents of every block type (tests/content's
strategies) and on arbitrary JSON shaped like documents (hypothesis)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.content.strategies import documents
from tests.site_pages.rendering.support import (
    Resolver,
    block,
    document,
    inline,
    paragraph,
    parse,
    render,
    text,
)

ELEMENTS = {
    "p",
    "h2",
    "h3",
    "h4",
    "a",
    "strong",
    "em",
    "code",
    "s",
    "kbd",
    "sup",
    "sub",
    "span",
    "br",
    "ul",
    "ol",
    "li",
    "input",
    "blockquote",
    "div",
    "pre",
    "details",
    "summary",
    "figure",
    "figcaption",
    "img",
    "hr",
    "label",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "section",
    "iframe",
}
ATTRIBUTES = {
    "class",
    "id",
    "href",
    "src",
    "alt",
    "title",
    "width",
    "start",
    "type",
    "disabled",
    "checked",
    "name",
    "for",
    "role",
    "aria-label",
    "loading",
    "sandbox",
    "referrerpolicy",
    "allowfullscreen",
    "scope",
    "data-language",
    "rel",
}
_SAFE_URL = re.compile(r"^(https?:|mailto:|#|/|\.|[^:/?#]*(?:[/?#]|$))", re.IGNORECASE)
HOSTILE_URLS = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    " javascript:alert(1)",
    "\x01javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "java\nscript:alert(1)",
    "file:///etc/passwd",
    "\x00javascript:alert(1)",
]
# Not a scheme once escaped: these are relative URLs, which must reach the attribute exactly as written
# (entities not decoded, quotes escaped), never as markup.
LITERAL_URLS = [
    "jav&#x09;ascript:alert(1)",
    "javascript&colon;alert(1)",
    '" onmouseover="alert(1)',
    "x' onerror='alert(1)",
]
HOSTILE_TEXT = '<script>alert(1)</script><img src=x onerror=alert(1)>" \' onload="alert(1)" &amp;'


def assert_safe(html: str, *, allow_embeds: bool = False) -> Any:
    """The parsed HTML, after checking it against the allow-lists (raising on anything else)."""
    assert "<script" not in html.lower()
    assert "<style" not in html.lower()
    html.encode("utf-8")  # what the response will be: a lone surrogate would fail here
    body = parse(html)
    for element in body.iter():
        if element is body or not isinstance(element.tag, str):
            continue
        assert element.tag in ELEMENTS, element.tag
        assert set(element.attrib) <= ATTRIBUTES, element.attrib
        assert element.tag != "iframe" or (allow_embeds and element.get("src", "").startswith("https://"))
        if element.tag == "iframe":
            assert "allow-same-origin" not in element.get("sandbox", "")
        if element.tag == "input":
            assert element.get("type") in ("checkbox", "radio")
        for name in ("href", "src"):
            url = element.get(name)
            if url is not None:
                assert not re.search(r"[\x00-\x20]", url[:1]), url
                assert _SAFE_URL.match(url), url
        href = element.get("href") or ""
        if re.match(r"^(https?:)?//", href, re.IGNORECASE):
            assert element.get("rel") == "noopener noreferrer", href
    return body


class HostileResolver(Resolver):
    """A resolver whose URLs are themselves hostile (the renderer checks what any resolver returns)."""

    def page_url(self, *, space_id: str | None, page_id: str, anchor: str | None) -> str | None:
        return "javascript:alert('page')"

    def file_url(self, *, space_id: str | None, file_id: str) -> str | None:
        return "data:image/svg+xml,<svg onload=alert(1)>"

    def space_url(self, *, space_id: str) -> str | None:
        return " javascript:alert('space')"


def _every_url_slot(url: str) -> dict[str, Any]:
    ref = {"kind": "url", "url": url}
    image = block("image", ref=ref, refDark=ref, alt=HOSTILE_TEXT)
    return document(
        paragraph(
            inline("link", [text("link")], ref=ref),
            inline("button", label=HOSTILE_TEXT, ref=ref),
            inline("mention", ref=ref),
            inline("inline-image", ref=ref, alt=HOSTILE_TEXT),
        ),
        block("content-ref", ref=ref),
        block("embed", url=url),
        block("images", [image]),
        block("drawing", ref=ref),
        block("file", ref=ref),
        block("integration", url=url, integration="x"),
        block("swagger", ref=ref, method="get", path=HOSTILE_TEXT),
    )


@pytest.mark.parametrize("url", HOSTILE_URLS)
@pytest.mark.parametrize("allow_embeds", [False, True])
def test_hostile_urls_never_reach_an_attribute(url, allow_embeds):
    rendered = render(_every_url_slot(url), allow_embeds=allow_embeds)
    body = assert_safe(str(rendered.html), allow_embeds=allow_embeds)
    assert body.findall(".//a") == []
    assert body.findall(".//img") == []
    assert body.findall(".//iframe") == []


@pytest.mark.parametrize("url", LITERAL_URLS)
def test_url_lookalikes_stay_literal_relative_urls(url):
    body = assert_safe(str(render(_every_url_slot(url)).html))
    assert {a.get("href") for a in body.findall(".//a")} == {url}
    assert {img.get("src") for img in body.findall(".//img")} == {url}
    assert all(set(element.attrib) <= ATTRIBUTES for element in body.iter())


def test_urls_from_the_resolver_are_checked_too():
    refs = [
        {"kind": "page", "page": "p"},
        {"kind": "anchor", "page": "p", "anchor": "a"},
        {"kind": "file", "file": "f"},
        {"kind": "space", "space": "s"},
    ]
    doc = document(
        *(block("content-ref", ref=ref) for ref in refs),
        block("images", [block("image", ref={"kind": "file", "file": "f"})]),
    )
    body = assert_safe(str(render(doc, links=HostileResolver()).html))
    assert body.findall(".//a") == []
    assert body.findall(".//img") == []


def test_safe_urls_are_kept_and_external_ones_get_noopener():
    urls = [
        "https://example.com/a?b=1&c=2",
        "http://example.com",
        "mailto:team@example.com",
        "/relative/path",
        "../up.md",
        "#anchor",
        "//cdn.example.com/x",
        "page:colon-in-path/../x",
    ]
    doc = document(
        *(paragraph(inline("link", [text(url)], ref={"kind": "url", "url": url})) for url in urls)
    )
    body = assert_safe(str(render(doc).html))
    assert [a.get("href") for a in body.findall(".//a")] == urls[:-1]  # "page:" is a scheme: dropped
    assert [a.get("rel") for a in body.findall(".//a")] == ["noopener noreferrer"] * 2 + [None] * 4 + [
        "noopener noreferrer"
    ]


def test_hostile_text_stays_text_everywhere():
    mark = {"object": "mark", "type": "color", "data": {"text": HOSTILE_TEXT, "background": HOSTILE_TEXT}}
    table = block(
        "table",
        definition={
            "c": {
                "id": "c",
                "title": HOSTILE_TEXT,
                "type": "select",
                "options": [{"value": "v", "label": HOSTILE_TEXT, "color": HOSTILE_TEXT}],
            }
        },
        records={"r": {"orderIndex": HOSTILE_TEXT, "values": {"c": ["v"]}}},
        view={"type": "grid"},
    )
    doc = document(
        block("heading-1", [text(HOSTILE_TEXT)], id=HOSTILE_TEXT),
        block("heading-2", [text(HOSTILE_TEXT)]),
        paragraph(
            text(HOSTILE_TEXT, "bold", mark),
            inline("emoji", code=HOSTILE_TEXT),
            inline("icon", icon=HOSTILE_TEXT, color=HOSTILE_TEXT),
            inline("inline-math", formula=HOSTILE_TEXT),
            inline("expression", expression="'<script>alert(1)</script>'"),
        ),
        block("hint", [paragraph(HOSTILE_TEXT)], style=HOSTILE_TEXT),
        block("code", [block("code-line", [text(HOSTILE_TEXT)])], syntax=HOSTILE_TEXT, title=HOSTILE_TEXT),
        block("code", [block("code-line", [text(HOSTILE_TEXT)])], syntax="html"),
        block("tabs", [block("tabs-item", [paragraph("x")], title=HOSTILE_TEXT)]),
        block("math", formula=HOSTILE_TEXT),
        block("list-ordered", [block("list-item", [paragraph("x")])], start=HOSTILE_TEXT),
        block("columns", [block("column", [paragraph("x")], width={"unit": HOSTILE_TEXT, "value": 5})]),
        block("integration", integration=HOSTILE_TEXT, block=HOSTILE_TEXT),
        table,
    )
    rendered = render(doc)
    body = assert_safe(str(rendered.html))
    texts = body.text_content()
    assert texts.count(HOSTILE_TEXT) >= 9
    assert "<script>alert(1)</script>" in texts  # the expression's value, as text
    assert rendered.headings[0].id == HOSTILE_TEXT  # escaped where it is used, never as markup
    assert body.find(".//h2").get("id") == HOSTILE_TEXT


# --- property-based -------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(), allow_embeds=st.booleans())
def test_every_generated_document_renders_safely(doc, allow_embeds):
    rendered = render(doc, allow_embeds=allow_embeds, links=Resolver(reusable={"a": doc}))
    assert_safe(str(rendered.html), allow_embeds=allow_embeds)
    assert len({h.id for h in rendered.headings}) == len(rendered.headings)


_STRINGS = st.one_of(
    st.sampled_from(
        [
            *HOSTILE_URLS,
            *LITERAL_URLS,
            HOSTILE_TEXT,
            "paragraph",
            "\ud800 lone surrogate",
            "dfff",
            "link",
            "code",
            "table",
            "heading-1",
            "images",
            "image",
            "url",
            "file",
            "page",
            "tabs",
            "if",
            "reusable-content",
            "annotation",
            "color",
            "bold",
        ]
    ),
    st.text(max_size=8),
)
_KEYS = st.sampled_from(
    [
        "object",
        "type",
        "data",
        "nodes",
        "leaves",
        "text",
        "marks",
        "fragments",
        "fragment",
        "ref",
        "kind",
        "url",
        "page",
        "file",
        "records",
        "definition",
        "view",
        "values",
        "id",
        "title",
        "syntax",
        "style",
        "label",
        "code",
        "formula",
        "expression",
        "columns",
        "options",
        "meta",
        "reusableContent",
        "checked",
        "start",
        "width",
        "value",
        "unit",
    ]
)
_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.floats(allow_nan=True), _STRINGS),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=6)),
    max_leaves=40,
)
_OBJECTS = st.sampled_from(["block", "inline", "text", "leaf", "mark", "document", "fragment"])


@st.composite
def _node_like(draw: Any, depth: int = 0) -> Any:
    node = draw(st.dictionaries(_KEYS, _JSON, max_size=4))
    node["object"] = draw(_OBJECTS)
    node["type"] = draw(_STRINGS)
    if depth < 4:
        node["nodes"] = draw(st.lists(_node_like(depth + 1), max_size=3))
    return node


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nodes=st.lists(st.one_of(_node_like(), _JSON), max_size=4), allow_embeds=st.booleans())
def test_arbitrary_json_never_fails_and_stays_safe(nodes, allow_embeds):
    rendered = render(
        {"object": "document", "nodes": nodes},
        allow_embeds=allow_embeds,
        links=Resolver(reusable={"a": {"nodes": nodes}}),
    )
    assert_safe(str(rendered.html), allow_embeds=allow_embeds)


def test_lone_surrogates_and_odd_emoji_codes_still_give_utf8():
    doc = document(
        block("heading-1", [text("Bad \ud800 heading")]),
        paragraph(text("x\udfffy"), inline("emoji", code="d800"), inline("emoji", code="110000"),
                  inline("emoji", code="1f600-zz"), inline("emoji", code="1f44d-1f3fb")),
    )
    rendered = render(doc)
    body = assert_safe(str(rendered.html))
    assert rendered.headings[0].text == "Bad \N{REPLACEMENT CHARACTER} heading"
    rendered.headings[0].id.encode("utf-8")
    emoji = body.find("p").findall("span")
    assert body.find("p").text_content() == "x\N{REPLACEMENT CHARACTER}y" + "".join(e.text for e in emoji)
    assert [e.text for e in emoji] == ["\U0001f44d\U0001f3fb"]


def test_deep_nesting_does_not_exhaust_the_stack():
    node: dict[str, Any] = paragraph("bottom")
    for _ in range(3000):
        node = block("blockquote", [node])
    rendered = render(document(node))
    assert "bottom" in str(rendered.html)
