"""Hostile input to the readers' API never makes a 5xx (issue 39, F2 and F3): cookies and tokens nested
past the JSON parser's stack, over-long or undecodable header values, and addresses whose parts are longer
than any organization or site reference (once a 502 from the hostname and basename guard lookups, whose
DynamoDB keys have size limits: tests.key_limits enforces them here as DynamoDB does)."""

from __future__ import annotations

import base64
import json
from http.cookies import SimpleCookie

import pytest

from tests import key_limits
from tests.site_pages.served.conftest import World

DEEP = "[" * 100_000


@pytest.fixture(autouse=True)
def dynamodb_key_limits():
    with key_limits.enforced():
        yield


def _segment(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def deep_jwt(depth: int) -> str:
    """A token whose header is JSON nested `depth` deep (PyJWT reads it before any signature check)."""
    return f"{_segment(b'[' * depth)}.{_segment(b'{}')}.{_segment(b'sig')}"


def hostile_cookies(site_id: str) -> list[str]:
    return [f"bindery-unsigned-{site_id}={'[' * 1_000}", f"bindery-unsigned-{site_id}={DEEP}",
            f"bindery-unsigned-{site_id}=" + '{"a":' * 5_000, f"bindery-token-{site_id}={deep_jwt(5_000)}",
            f"bindery-share-{site_id}={'k' * 8_000}", f"bindery-unsigned-{site_id}=\udcff\xfe",
            "x" * 10_000 + "=1"]


def test_a_cookie_nested_past_the_parser_is_ignored(world: World):
    for cookie in hostile_cookies(world.site_id):
        reply = world.get("/install", headers={"Cookie": cookie})
        assert reply.status == 200, (cookie[:40], reply.status)
        assert "Get the package" in reply.body.decode()


def _unsigned_cookie(site_id: str, claims: object) -> str:
    jar: SimpleCookie = SimpleCookie()
    jar[f"bindery-unsigned-{site_id}"] = json.dumps(claims, separators=(",", ":"))
    return jar.output(header="").strip()


def test_the_unsigned_claims_cookie_keeps_only_short_flat_claims(world: World):
    page = "/reference/options"
    shown = world.text(page, headers={"Cookie": _unsigned_cookie(world.site_id, {"pro": "true"})})
    assert "Pro settings" in shown
    # Bindery writes flat claims of short strings: a nested or oversized one in the cookie is dropped.
    for claims in ({"pro": [[["true"]]]}, {"pro": {"a": "true"}}, {"pro": "t" * 300}, {"p" * 100: "true"}):
        cookie = _unsigned_cookie(world.site_id, claims)
        assert "Pro settings" not in world.text(page, headers={"Cookie": cookie})


def test_a_deep_token_in_the_query_is_refused_not_a_crash(world: World):
    world.patch_site(visibility="visitor-auth")
    assert world.get("/install?jwt_token=" + deep_jwt(5_000)).status == 401
    assert world.get("/install", headers={"Cookie": f"bindery-token-{world.site_id}={deep_jwt(5_000)}"}
                     ).status == 401
    assert world.get("/install?jwt_token=" + "a" * 100_000).status == 401


@pytest.mark.parametrize("query", ["?visitor.x=" + "[" * 255, "?visitor.x=" + "%ff%fe",
                                   "?shareKey=" + "k" * 5000, "?" + "v" * 10_000 + "=1"])
def test_hostile_query_values_are_ignored(world: World, query: str):
    assert world.get("/install" + query).status == 200


@pytest.mark.parametrize("header", ["If-None-Match", "Accept-Language", "X-Forwarded-Proto", "User-Agent"])
def test_hostile_header_values_are_ignored(world: World, header: str):
    for value in (DEEP, "v" * 20_000, "\udcff\xfe\x00"):
        assert world.get("/install", headers={header: value}).status == 200


@pytest.mark.parametrize(("org", "site"), [("o" * 2040, "x"), ("o" * 3000, "docs"), ("acme", "s" * 1030),
                                           ("acme", "s" * 2100), ("o" * 129, "docs"), ("acme", "s" * 129)])
def test_an_address_longer_than_any_reference_is_a_404(world: World, org: str, site: str):
    reply = world.get(f"/{org}/{site}/install", prefix="/sites")
    assert reply.status == 404
    assert "Page not found" in reply.body.decode()


def test_an_over_long_host_is_a_404(world: World):
    for host in ("h" * 3000 + ".example", "a." * 600 + "example"):
        assert world.get("/install", headers={"Host": host}, prefix="").status == 404


@pytest.mark.parametrize("path", [
    "/.md", "/" + "x" * 5_000 + ".md", "/install/" + "y" * 3_000 + ".md", "/~site/files/nothing.md",
    "/llms.txt/more", "/" + "z" * 2_000 + "/llms.txt", "/install/linux.md?jwt_token=" + deep_jwt(5_000)])
def test_the_markdown_and_llms_txt_routes_never_fail_on_odd_paths(world: World, path: str):
    assert world.get(path).status in (200, 301, 302, 404)
    for cookie in hostile_cookies(world.site_id):
        assert world.get("/llms.txt", headers={"Cookie": cookie}).status == 200, cookie[:40]
        assert world.get("/install/linux.md", headers={"Cookie": cookie}).status == 200, cookie[:40]


@pytest.mark.parametrize("prefix", ["/sites/acme.md", "/sites/acme/docs.md", "/sites/llms.txt",
                                    "/sites/acme/llms-full.txt", "/sites/" + "o" * 3_000 + "/d/llms.txt"])
def test_agent_routes_naming_no_site_are_404(world: World, prefix: str):
    assert world.get("", prefix=prefix).status == 404


def test_a_host_header_that_is_not_a_plain_host_never_becomes_the_origin_of_links(world: World):
    for host in ("127.0.0.1:3000@evil.example", "127.0.0.1:3000/evil.example", "127.0.0.1:3000 evil"):
        for path in ("/llms.txt", "/install/linux.md"):
            reply = world.get(path, headers={"Host": host})  # the API's host as far as routing goes
            assert reply.status == 200, (host, path)
            assert "evil" not in reply.body.decode(), (host, path)
