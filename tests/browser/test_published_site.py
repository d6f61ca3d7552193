"""A reader's browser on published sites (Chromium driven by Playwright against `make run`'s server): a
site imported from the fluentd docs, its navigation and search, and a visitor-auth site that refuses
readers without a token and shows a conditioned section only to matching claims."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Published

pytestmark = pytest.mark.browser
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"


def test_a_reader_opens_the_site_and_follows_its_navigation(published: Published, page: Any):
    response = page.goto(f"{published.origin}/sites/fluent/docs")
    assert response.status == 200
    assert page.inner_text("article h1") == "Introduction"
    assert page.get_attribute(".page-tree a[aria-current=page]", "href") == "/sites/fluent/docs/readme"
    page.click(".page-tree a:text-is('Installation')")
    page.wait_for_url("**/sites/fluent/docs/installation")
    assert page.inner_text("article h1") == "Installation"
    assert page.inner_text(".page-tree li.current > a") == "Installation"
    child = page.locator(".page-tree li.current ul a").first
    title = child.inner_text()
    child.click()
    assert page.inner_text("article h1") == title
    page.click(".pagination a[rel=next]")
    assert page.inner_text("article h1") != title
    page.click(".pagination a[rel=prev]")
    assert page.inner_text("article h1") == title
    assert page.locator(".toc a").count() > 0  # the table of contents of a page with headings


def test_a_reader_searches_the_site(published: Published, page: Any):
    page.goto(f"{published.origin}/sites/fluent/docs")
    page.fill(".search input[name=q]", "buffer chunk")
    page.press(".search input[name=q]", "Enter")
    page.wait_for_url("**/~site/search?q=buffer+chunk")
    assert "results for “buffer chunk”" in page.inner_text(".result-count")
    first = page.locator(".search-results ol > li > a").first
    title = first.inner_text()
    first.click()
    assert page.inner_text("article h1") == title


def test_an_old_address_from_gitbook_yaml_redirects_to_its_page(published: Published, page: Any):
    # .gitbook.yaml: v1.0/articles/buffer-section -> configuration/buffer-section.md
    response = page.goto(f"{published.origin}/sites/fluent/docs/v1.0/articles/buffer-section")
    assert response.status == 200
    assert page.url.endswith("/sites/fluent/docs/configuration/buffer-section")
    assert page.inner_text("article h1") == "Config: Buffer Section"


def test_a_visitor_auth_site_refuses_a_reader_without_a_token(published: Published, page: Any):
    response = page.goto(f"{published.origin}/sites/fluent/members")
    assert response.status == 401
    assert page.inner_text("h1") == "Sign-in required"
    assert "Introduction" not in page.content()


def test_a_conditioned_section_shows_only_to_visitors_whose_claims_match(published: Published,
                                                                         browser: Any):
    base = f"{published.origin}/sites/fluent/members"
    plain = browser.new_context().new_page()
    assert plain.goto(f"{base}?jwt_token={published.visitor_token(beta=False)}").status == 200
    assert plain.locator(".sections a").all_inner_texts() == ["Guide"]
    plain.goto(f"{base}/beta-program")  # the token is in a cookie now; the section is still hidden
    assert plain.inner_text("h1") == "Page not found"
    tester = browser.new_context().new_page()
    tester.goto(f"{base}?jwt_token={published.visitor_token(beta=True)}")
    assert tester.locator(".sections a").all_inner_texts() == ["Guide", "Beta Program"]
    tester.click(".sections a:text-is('Beta Program')")
    tester.wait_for_url("**/members/beta-program")
    assert tester.inner_text("article h1") == "Introduction"
    assert tester.get_attribute(".sections a.current", "href") == "/sites/fluent/members/beta-program"


def test_the_light_and_dark_themes(published: Published, page: Any):
    """Both themes render; BINDERY_WRITE_SCREENSHOTS=1 saves them as the README's screenshots."""
    shots = {}
    for theme in ("light", "dark"):
        page.goto(f"{published.origin}/sites/fluent/docs/installation/install-by-rpm?theme={theme}")
        assert page.get_attribute("html", "data-theme") == theme
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        shots[theme] = (background, page.screenshot())
        if os.environ.get("BINDERY_WRITE_SCREENSHOTS") == "1":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            (SCREENSHOTS / f"published-site-{theme}.png").write_bytes(shots[theme][1])
    assert shots["light"][0] == "rgb(255, 255, 255)"
    assert shots["dark"][0] != shots["light"][0]
