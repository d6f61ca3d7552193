"""A search result's app URLs are the page's app URL (View.app_url), whatever characters its path holds."""

from __future__ import annotations

import pytest

from bindery.api.wire.content_views import View
from bindery.api.wire.search import hits_to_wire
from bindery.engines.search.query import PageHit, SectionHit
from bindery.platform.pagination import Listing


@pytest.mark.parametrize("path", ["guides/install-it_now.v2~x", "guides/café & co", "a b/c?d#e%f", ""])
def test_result_urls_are_the_pages_app_urls(path):
    hit = PageHit("p1", "Page", path, [SectionHit("setup", "Setup", "text"), SectionHit(None, "", "intro")])
    [result] = hits_to_wire(Listing([hit], None, 1), space_id="s1", revision_id="r1").model_dump()["items"]
    page_url = View("s1", "r1", current=True).app_url(path)
    assert result["urls"]["app"] == page_url
    assert [section["urls"]["app"] for section in result["sections"]] == [page_url + "#setup", page_url]
