"""What a reader's browser (or anyone) may send the readers' API never makes a 5xx: malformed cookies and
tokens, odd paths and parameters are answered as the rules say (docs/published-sites.md)."""

from __future__ import annotations

import pytest

from tests.site_pages.served.conftest import World

ODD_PATHS = ["/%00", "/%ff%fe", "/..%2f..%2fetc", "/" + "a/" * 200, "/é/ü", "/~site", "/~site/",
             "/~site/x/y/z", "/~site/files", "/~site/page", "/~site/search", "/api/~site/files/%00",
             "/install/~site/page/x"]


@pytest.mark.parametrize("path", ODD_PATHS)
def test_odd_paths_are_pages_or_404s(world: World, path: str):
    assert world.get(path).status in (200, 301, 302, 404)


def test_malformed_cookies_tokens_and_parameters_are_ignored_or_refused(world: World):
    for cookie in ('bindery-unsigned-x="{', "a=b; ;;; =; \x7f", f"bindery-unsigned-{world.site_id}=[1,2]",
                   f"bindery-token-{world.site_id}=not.a.jwt"):
        assert world.get("/install", headers={"Cookie": cookie}).status == 200, cookie
    for query in ("?jwt_token=a.b.c", "?jwt_token=", "?theme=<script>", "?visitor.=1",
                  "?visitor." + "n" * 100 + "=1", "?visitor.x=" + "v" * 1000, "?shareKey=%00"):
        reply = world.get("/install" + query)
        assert reply.status == 200, query
        assert "<script>" not in reply.body.decode()
    world.patch_site(visibility="visitor-auth")
    assert world.get("/install?jwt_token=eyJhbGciOiJub25lIn0.e30.").status == 401  # alg none refused


def test_long_or_many_unsigned_claims_do_not_grow_the_cookie(world: World):
    query = "&".join(f"visitor.c{n}=1" for n in range(40)) + "&visitor.big=" + "v" * 1000
    reply = world.get("/install?" + query)
    assert reply.status == 200
    assert len(reply.headers["Set-Cookie"]) < 1000
