"""The search box of a published site (docs/published-sites.md, "Search"): every part of the site the
visitor may open, merged best first and labelled with its part; `scope=current` narrows to the site space
shown; parts hidden from the visitor (conditions, share links) contribute nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html

from bindery.engines.site_pages import site_search
from tests.api.sites.test_site_sections import add_section
from tests.site_pages.served.conftest import World, imported_space
from tests.site_pages.served.test_site_visibility import cookie_of, publishing_auth, token

CHANGES = {
    "README.md": b"# Endpoints\n\nWhat changed, release by release.\n",
    "SUMMARY.md": b"# Summary\n\n* [Endpoints](README.md)\n",
}


def results(page: str) -> list[tuple[str, str, str]]:
    """(label, title, href) of each result, in order."""
    items = lxml_html.fromstring(page).xpath("//article[contains(@class, 'search-results')]/ol/li")
    return [("".join(li.xpath("./span[@class='search-part']/text()")), li.xpath("./a")[0].text_content(),
             li.xpath("./a")[0].get("href")) for li in items]


def scope_link(page: str, text: str) -> str:
    tree = lxml_html.fromstring(page)
    [href] = tree.xpath(f"//p[@class='search-scope']/a[contains(text(), '{text}')]/@href")
    return str(href).removeprefix("/sites/acme/docs")


def two_sections(world: World, second: str) -> dict[str, Any]:
    """Sections "Guide" (the guide) and `second` (the API space), one site space each: the first section
    takes the site's site spaces, so the API's there is removed."""
    add_section(world.api, world.ada, world.site_id, spaceId=world.guide, title="Guide")
    section = add_section(world.api, world.ada, world.site_id, spaceId=world.api_space, title=second)
    listed = world.api.get(world.site("/site-spaces"), token=world.ada.token).json()["items"]
    [moved] = [ss["id"] for ss in listed if ss["space"]["id"] == world.api_space
               and ss["section"] != section["id"]]
    assert world.api.delete(world.site(f"/site-spaces/{moved}"), token=world.ada.token).status == 204
    return section


def section_of(world: World, space_id: str) -> str:
    listed = world.api.get(world.site("/site-spaces"), token=world.ada.token).json()["items"]
    return str(next(ss["section"] for ss in listed if ss["space"]["id"] == space_id))


def test_a_hit_of_another_site_space_is_labelled_and_links_into_it(world: World):
    page = world.text("/api/~site/search?q=buffer")  # searched from the API site space
    assert "1 result for “buffer”" in page
    assert results(page) == [("Guide", "On Linux", "/sites/acme/docs/install/linux")]
    assert "<h1>On Linux</h1>" in world.text("/install/linux")


def test_a_hit_of_another_section_is_labelled_with_it_and_its_link_works(world: World):
    two_sections(world, "Reference API")
    page = world.text("/~site/search?q=endpoints")  # searched from the Guide section
    assert results(page) == [("Reference API", "API", "/sites/acme/docs/reference-api/readme")]
    assert "<h1>API</h1>" in world.text("/reference-api/readme")
    # From the other section, the Guide's pages are found and link to the site's root section.
    assert results(world.text("/reference-api/~site/search?q=buffer")) == [
        ("Guide", "On Linux", "/sites/acme/docs/install/linux")]


def test_scope_current_narrows_to_the_site_space_shown(world: World):
    whole = world.text("/api/~site/search?q=buffer")
    narrowed = world.text(scope_link(whole, "Only in API"))
    assert "0 results for “buffer”" in narrowed
    assert results(narrowed) == []
    assert results(world.text("/api/~site/search?q=endpoints&scope=current")) == [
        ("", "API", "/sites/acme/docs/api/readme")]
    # The narrowed page leads back to the whole site's results.
    assert results(world.text(scope_link(narrowed, "Search the whole site"))) == results(whole)


def test_hits_of_several_site_spaces_are_merged_best_first(world: World, deliver_queued: Callable[[], int],
                                                           tmp_path: Path):
    changes = imported_space(world.api, world.ada, deliver_queued, repo=tmp_path / "changes.git",
                             files=CHANGES, title="Changes")
    added = world.api.post(world.site("/site-spaces"), token=world.ada.token, body={"spaceId": changes})
    assert added.status == 201, added.body
    # Searched from the API site space (searched first), whose page only mentions the word: the page
    # titled with it, in a space searched later, still comes first.
    page = world.text("/api/~site/search?q=endpoints")
    assert "2 results for “endpoints”" in page
    found = results(page)
    assert [(label, title) for label, title, _ in found] == [("Changes", "Endpoints"), ("API", "API")]
    assert "<h1>Endpoints</h1>" in world.text(found[0][2].removeprefix("/sites/acme/docs"))


def test_a_section_hidden_by_its_condition_contributes_no_hit(world: World):
    beta = two_sections(world, "Beta API")
    changed = world.api.patch(world.site(f"/sections/{beta['id']}"), token=world.ada.token,
                              body={"condition": "visitor.claims.unsigned.beta == true"})
    assert changed.status == 200, changed.body
    hidden = world.text("/~site/search?q=endpoints")
    assert "0 results for “endpoints”" in hidden
    assert "Beta API" not in hidden
    shown = world.get("/~site/search?q=endpoints&visitor.beta=true")
    assert results(shown.body.decode()) == [("Beta API", "API", "/sites/acme/docs/beta-api/readme")]
    cookie = cookie_of(shown, f"bindery-unsigned-{world.site_id}")  # the claim is kept for later searches
    assert len(results(world.text("/~site/search?q=endpoints", headers={"Cookie": cookie}))) == 1
    assert results(world.text("/~site/search?q=endpoints&visitor.beta=false")) == []


def test_a_site_space_hidden_by_its_condition_contributes_no_hit(world: World):
    spaces = world.api.get(world.site("/site-spaces"), token=world.ada.token).json()["items"]
    api_site_space = next(ss for ss in spaces if ss["space"]["id"] == world.api_space)
    changed = world.api.patch(world.site(f"/site-spaces/{api_site_space['id']}"), token=world.ada.token,
                              body={"condition": 'visitor.claims.unsigned.tier == "pro"'})
    assert changed.status == 200, changed.body
    assert results(world.text("/~site/search?q=endpoints")) == []
    assert results(world.text("/~site/search?q=endpoints&visitor.tier=pro")) == [
        ("API", "API", "/sites/acme/docs/api/readme")]


def test_a_share_link_site_is_searched_only_with_its_key_and_not_after_the_link_is_deactivated(world: World):
    world.patch_site(visibility="share-link")
    link = world.api.post(world.site("/share-links"), token=world.ada.token, body={"name": "Partners"}).json()
    key = link["urls"]["published"].split("shareKey=")[1]
    assert world.get("/~site/search?q=endpoints").status == 404
    opened = world.get(f"/~site/search?q=endpoints&shareKey={key}")
    assert opened.status == 200
    assert [title for _, title, _ in results(opened.body.decode())] == ["API"]
    cookie = cookie_of(opened, f"bindery-share-{world.site_id}")
    assert world.get("/~site/search?q=buffer", headers={"Cookie": cookie}).status == 200
    off = world.api.patch(world.site(f"/share-links/{link['id']}"), token=world.ada.token,
                          body={"active": False})
    assert off.status == 200
    assert world.get("/~site/search?q=buffer", headers={"Cookie": cookie}).status == 404


def test_an_unlisted_sites_search_says_noindex_and_is_not_shared_by_caches(world: World):
    world.patch_site(visibility="unlisted")
    reply = world.get("/~site/search?q=endpoints")
    assert reply.status == 200
    assert reply.headers["X-Robots-Tag"] == "noindex"
    assert reply.headers["Cache-Control"] == "private, no-cache"
    assert [title for _, title, _ in results(reply.body.decode())] == ["API"]


@pytest.mark.parametrize("query", ["", "%20%20", "%22%22", "***"])
def test_an_empty_query_shows_no_results_and_asks_for_words(world: World, query: str):
    page = world.text(f"/~site/search?q={query}")
    assert results(page) == []
    if query:  # a query of no words at all is searched and matches nothing
        assert "0 results" in page
    else:
        assert "Type words to search for." in page
    assert "Type words to search for." in world.text("/~site/search")


def test_a_site_with_more_site_spaces_than_searched_says_so(world: World, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(site_search, "MAX_PARTS", 1)
    page = world.text("/~site/search?q=endpoints")  # only the site space shown is searched
    assert results(page) == []
    assert "1 other part of the site not searched" in page
    assert [title for _, title, _ in results(world.text("/api/~site/search?q=endpoints"))] == ["API"]


def test_beyond_the_cap_every_sections_default_is_searched_before_other_site_spaces(
        world: World, deliver_queued: Callable[[], int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    section = two_sections(world, "Reference API")
    guide_section = section_of(world, world.guide)
    changes = imported_space(world.api, world.ada, deliver_queued, repo=tmp_path / "changes.git",
                             files=CHANGES, title="Changes")
    added = world.api.post(world.site("/site-spaces"), token=world.ada.token,
                           body={"spaceId": changes, "sectionId": guide_section})
    assert (added.status, added.json()["section"]) == (201, guide_section), added.body
    monkeypatch.setattr(site_search, "MAX_PARTS", 2)
    # From the Guide: the Guide, then the other section's default; the Guide's second variant waits.
    page = world.text("/~site/search?q=endpoints")
    assert results(page) == [("Reference API", "API", "/sites/acme/docs/reference-api/readme")]
    assert "1 other part of the site not searched" in page
    # From that variant, it is searched first, then the Guide section's default: the API waits.
    page = world.text("/changes/~site/search?q=endpoints")
    assert [(label, title) for label, title, _ in results(page)] == [("Guide / Changes", "Endpoints")]
    assert "1 other part of the site not searched" in page
    assert section["id"] != guide_section


def test_a_visitor_auth_sites_section_is_searched_only_for_tokens_whose_claims_match(world: World):
    key = publishing_auth(world)["privateKey"]
    world.patch_site(visibility="visitor-auth")
    beta = two_sections(world, "Beta API")
    changed = world.api.patch(world.site(f"/sections/{beta['id']}"), token=world.ada.token,
                              body={"condition": "visitor.claims.beta == true"})
    assert changed.status == 200, changed.body
    assert world.get("/~site/search?q=endpoints").status == 401
    plain = world.text(f"/~site/search?q=endpoints&jwt_token={token(key, beta=False)}")
    assert (results(plain), "Beta API" in plain) == ([], False)
    tester = world.text(f"/~site/search?q=endpoints&jwt_token={token(key, beta=True)}")
    assert results(tester) == [("Beta API", "API", "/sites/acme/docs/beta-api/readme")]
