"""Which URLs may reach `href`/`src` on a published page (bindery.engines.site_pages.rendering.urls): the gate
every document and resolver URL goes through."""

from __future__ import annotations

import pytest

from bindery.engines.site_pages.rendering.urls import https_url, is_external, safe_url


@pytest.mark.parametrize("url", [
    "https://example.com/a?b=1#c", "http://example.com", "HTTPS://EXAMPLE.COM", "mailto:a@example.com",
    "MailTo:a@example.com", "/absolute/path", "relative/path.md", "../up", "./here", "#anchor", "?query=1",
    "//cdn.example.com/x", "path/with:colon", "a.b+c-d/x",
])
def test_http_mailto_relative_and_anchor_urls_are_kept(url):
    assert safe_url(url) == url


@pytest.mark.parametrize("url", [
    "javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,x", "vbscript:x", "file:///etc/passwd",
    "ftp://example.com", "blob:https://example.com/x", "tel:123", "x-custom:thing", "a+b.c-d:thing",
])
def test_other_schemes_are_refused(url):
    assert safe_url(url) is None


@pytest.mark.parametrize(("url", "kept"), [
    ("java\tscript:alert(1)", None), ("java\nscript:alert(1)", None), ("java\rscript:alert(1)", None),
    (" javascript:alert(1)", None), ("\x01\x02javascript:alert(1)", None), ("\x00javascript:x", None),
    ("  https://example.com  ", "https://example.com"),
    ("https://exa\tmple.com/a\nb", "https://example.com/ab"),
    ("https://example.com/\x07bell", None), ("https://example.com/\x7f", None),
])
def test_what_browsers_ignore_is_removed_before_the_scheme_is_read(url, kept):
    assert safe_url(url) == kept


@pytest.mark.parametrize("value", [None, 3, b"https://example.com", ["https://example.com"], "", " ", "\t\n"])
def test_anything_but_a_non_blank_string_is_refused(value):
    assert safe_url(value) is None


@pytest.mark.parametrize(("url", "external"), [
    ("https://example.com", True), ("HTTP://example.com", True), ("//cdn.example.com", True),
    ("\\\\evil.example", True), ("/\\evil.example", True), ("/site/page", False), ("#a", False),
    ("mailto:a@example.com", False), ("page.md", False), ("https-not/a-scheme", False),
])
def test_external_urls_are_those_leaving_the_site(url, external):
    assert is_external(url) is external


@pytest.mark.parametrize(("url", "framed"), [
    ("https://example.com/v", "https://example.com/v"), ("HTTPS://example.com", "HTTPS://example.com"),
    ("http://example.com", None), ("//example.com", None), ("/local", None), ("javascript:x", None),
    (None, None),
])
def test_only_https_urls_may_be_framed(url, framed):
    assert https_url(url) == framed
