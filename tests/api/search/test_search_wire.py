"""A search result's app URLs are the page's app URL (View.app_url), whatever characters its path holds."""

from __future__ import annotations

import pytest

from bindery.api.wire.content_views import View
from bindery.api.wire.search import hits_to_json, hits_to_wire
from bindery.engines.search.query import PageHit, SectionHit
from bindery.platform.pagination import Listing


@pytest.mark.parametrize("path", ["guides/install-it_now.v2~x", "guides/café & co", "a b/c?d#e%f", ""])
def test_result_urls_are_the_pages_app_urls(path):
    hit = PageHit("p1", "Page", path, [SectionHit("setup", "Setup", "text"), SectionHit(None, "", "intro")])
    [result] = hits_to_wire(Listing([hit], None, 1), space_id="s1", revision_id="r1").model_dump()["items"]
    page_url = View("s1", "r1", current=True).app_url(path)
    assert result["urls"]["app"] == page_url
    assert [section["urls"]["app"] for section in result["sections"]] == [page_url + "#setup", page_url]


def _as_powertools_answers(model):
    """What Powertools makes of a returned model: its response validation's `dump_python(mode="json")`,
    then the resolver's serializer."""
    from aws_lambda_powertools.event_handler.api_gateway import _JSON_DUMP_CALL
    from pydantic import TypeAdapter

    return _JSON_DUMP_CALL(TypeAdapter(type(model)).dump_python(model, mode="json", by_alias=True))


@pytest.mark.parametrize("text", ["plain", "café … 中文 😀", 'quote " back \\ slash / <b>&',
                                  "tab\tline\nret\r", "controls \x00\x01\x1f and DEL \x7f\x7f",
                                  "lone \ud800 surrogate", "separators \u2028\u2029"])
@pytest.mark.parametrize("cursor", [None, "next-page"])
def test_the_json_body_is_the_bytes_powertools_would_write_of_the_model(text, cursor):
    path = "guides/" + text.encode("utf-8", "replace").decode()  # a path is text an URL can quote
    hits = [PageHit("p1", f"Page {text}", path, [SectionHit("a", text, f"…{text}…"),
                                                             SectionHit(None, "", "")]),
            PageHit("p2", "Empty", "empty", [])]
    for listing in (Listing(hits, cursor, 7), Listing([], cursor, 0)):
        model = hits_to_wire(listing, space_id="s1", revision_id="r1")
        assert hits_to_json(listing, space_id="s1", revision_id="r1") == _as_powertools_answers(model)


TEXTS = ["plain", "é", "…", "中文", "😀", "tab\tline\nret\r", "controls \x00\x1f and DEL \x7f",
         'quote " \\ /', "lone \ud800", "\u2028"]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("field", ["id", "title", "path", "anchor", "heading", "body", "cursor"])
def test_one_character_anywhere_in_the_page_is_written_as_powertools_would(text, field):
    # A page of results whose every string is ASCII is written without pydantic's `ensure_ascii`
    # (bindery.api.wire.search.json_text): one character outside ASCII in any one string must turn it on.
    values = {"id": "p1", "title": "Page", "path": "guides/setup", "anchor": "setup", "heading": "Setup",
              "body": "Run make.", "cursor": "next-page"}
    values[field] = text if field != "path" else "guides/" + text.encode("utf-8", "replace").decode()
    section = SectionHit(values["anchor"], values["heading"], values["body"])
    hit = PageHit(values["id"], values["title"], values["path"], [section, SectionHit(None, "", "x")])
    listing = Listing([hit, PageHit("p2", "Other", "other", [])], values["cursor"], 2)
    model = hits_to_wire(listing, space_id="s1", revision_id="r1")
    assert hits_to_json(listing, space_id="s1", revision_id="r1") == _as_powertools_answers(model)


@pytest.mark.parametrize("text", ['"sections":[', '"body":""', '"urls":{"app":"x"}', "plain"])
def test_a_result_shown_again_elsewhere_is_written_as_powertools_would(text):
    # The parts of a result around its sections' bodies are written once and kept (keyed by what they are
    # made of): a page shown again, by another space (an index file can be shared by spaces of the same
    # content) or with other sections, is written as its model would be; strings that look like the keys
    # the parts are cut at do not move the cut.
    hit = PageHit("p1", f"Page {text}", "guides/setup", [SectionHit(text, text, f"body {text}")])
    again = PageHit("p1", f"Page {text}", "guides/setup",
                    [SectionHit(None, "", text), SectionHit(text, text, "x")])
    for space_id, hits in (("s1", [hit]), ("s1", [hit]), ("s2", [hit]), ("s1", [again, hit])):
        listing = Listing(hits, None, len(hits))
        model = hits_to_wire(listing, space_id=space_id, revision_id="r1")
        assert hits_to_json(listing, space_id=space_id, revision_id="r1") == _as_powertools_answers(model)
