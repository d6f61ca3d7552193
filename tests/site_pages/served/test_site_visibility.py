"""Who reads a published site (docs/published-sites.md, "Visibility"): public, unlisted, share-link and
visitor-auth sites, unpublished ones, the publishing-auth operations, and adaptive conditions on
sections and site spaces decided by the visitor's claims."""

from __future__ import annotations

import re
import time

import jwt

from tests.api.sites.test_site_sections import add_section
from tests.site_pages.served.conftest import World


def cookie_of(reply, name: str) -> str:
    """The `name=value` part of the Set-Cookie the reply sends for `name`."""
    found = re.search(rf"(?:^|, )({re.escape(name)}=[^;]*)", reply.headers.get("Set-Cookie", ""))
    assert found, f"no cookie {name} in {reply.headers}"
    return found.group(1)


def publishing_auth(world: World, method: str = "GET", rest: str = "", **kw):
    reply = world.api.call(method, world.site("/publishing/auth" + rest), token=world.ada.token, **kw)
    assert reply.status == 200, reply.body
    return reply.json()


def token(key: str, **claims) -> str:
    return jwt.encode({"exp": int(time.time()) + 600, **claims}, key, algorithm="HS256")


def test_an_unpublished_site_is_not_found(world: World):
    assert world.api.post(world.site("/unpublish"), token=world.ada.token).status == 200
    assert world.get("").status == 404
    assert world.get("/install").status == 404


def test_a_public_site_is_indexable_and_cacheable_by_shared_caches(world: World):
    reply = world.get("/install")
    assert "noindex" not in reply.body.decode()
    assert "X-Robots-Tag" not in reply.headers
    assert reply.headers["Cache-Control"] == "public, max-age=60"


def test_an_unlisted_site_says_noindex(world: World):
    world.patch_site(visibility="unlisted")
    reply = world.get("/install")
    assert reply.status == 200
    assert '<meta name="robots" content="noindex">' in reply.body.decode()
    assert reply.headers["X-Robots-Tag"] == "noindex"
    assert reply.headers["Cache-Control"] == "private, no-cache"
    moved = world.get("/reference")  # a redirect is cached as the pages are
    assert (moved.status, moved.headers["Cache-Control"]) == (301, "private, no-cache")


def test_a_share_link_site_opens_with_an_active_key_and_then_its_cookie(world: World):
    world.patch_site(visibility="share-link")
    link = world.api.post(world.site("/share-links"), token=world.ada.token, body={"name": "Partners"}).json()
    key = link["urls"]["published"].split("shareKey=")[1]
    assert world.get("/install").status == 404
    assert world.get("/install?shareKey=wrong").status == 404
    opened = world.get(f"/install?shareKey={key}")
    assert opened.status == 200
    cookie = cookie_of(opened, f"bindery-share-{world.site_id}")
    assert "HttpOnly" in opened.headers["Set-Cookie"]
    assert world.get("/install/linux", headers={"Cookie": cookie}).status == 200
    off = world.api.patch(world.site(f"/share-links/{link['id']}"), token=world.ada.token,
                          body={"active": False})
    assert off.status == 200
    assert world.get("/install/linux", headers={"Cookie": cookie}).status == 404


def test_the_publishing_auth_operations_give_admins_the_signing_key(world: World):
    first = publishing_auth(world)
    assert (first["object"], first["backend"]) == ("publishing-auth", "custom")
    assert len(first["privateKey"]) >= 32
    assert publishing_auth(world)["privateKey"] == first["privateKey"]  # kept once created
    changed = publishing_auth(world, "PATCH",
                              body={"backend": "custom", "fallbackURL": "https://acme.test/login"})
    assert changed["fallbackURL"] == "https://acme.test/login"
    again = publishing_auth(world, "POST", "/regenerate")
    assert again["privateKey"] != first["privateKey"]
    assert again["fallbackURL"] == "https://acme.test/login"
    bad = world.api.patch(world.site("/publishing/auth"), token=world.ada.token, body={"backend": "other"})
    assert bad.status == 400
    reader = world.api.user("Rita")
    assert world.api.get(world.site("/publishing/auth"), token=reader.token).status == 404


def test_a_visitor_auth_site_refuses_readers_without_a_valid_token(world: World):
    key = publishing_auth(world)["privateKey"]
    world.patch_site(visibility="visitor-auth")
    refused = world.get("/install")
    assert refused.status == 401
    assert "Sign-in required" in refused.body.decode()
    assert world.get(f"/install?jwt_token={token('a-key-of-another-site-0123456789abcdef')}").status == 401
    expired = jwt.encode({"exp": int(time.time()) - 10}, key, algorithm="HS256")
    assert world.get(f"/install?jwt_token={expired}").status == 401
    opened = world.get(f"/install?jwt_token={token(key)}")
    assert opened.status == 200
    cookie = cookie_of(opened, f"bindery-token-{world.site_id}")
    assert world.get("/install/linux", headers={"Cookie": cookie}).status == 200
    assert opened.headers["Cache-Control"] == "private, no-cache"
    publishing_auth(world, "POST", "/regenerate")  # the old key's tokens stop working at once
    assert world.get("/install/linux", headers={"Cookie": cookie}).status == 401


def test_a_visitor_auth_site_sends_readers_without_a_token_to_its_fallback_url(world: World):
    publishing_auth(world, "PATCH", body={"backend": "custom", "fallbackURL": "https://acme.test/login"})
    world.patch_site(visibility="visitor-auth")
    reply = world.get("/install")
    assert (reply.status, reply.headers["Location"]) == (302, "https://acme.test/login")


def test_sections_with_conditions_show_only_to_visitors_whose_claims_match(world: World):
    key = publishing_auth(world)["privateKey"]
    world.patch_site(visibility="visitor-auth")
    add_section(world.api, world.ada, world.site_id, spaceId=world.guide, title="Guide")
    beta = add_section(world.api, world.ada, world.site_id, spaceId=world.api_space, title="Beta API")
    changed = world.api.patch(world.site(f"/sections/{beta['id']}"), token=world.ada.token,
                              body={"condition": "visitor.claims.beta == true"})
    assert changed.status == 200, changed.body
    plain = world.get(f"?jwt_token={token(key, beta=False)}").body.decode()
    assert "Beta API" not in plain
    assert world.get(f"/beta-api?jwt_token={token(key, beta=False)}").status == 404
    tester = world.get(f"?jwt_token={token(key, beta=True)}").body.decode()
    assert '<a href="/sites/acme/docs/beta-api">Beta API</a>' in tester
    assert "<h1>API</h1>" in world.get(f"/beta-api?jwt_token={token(key, beta=True)}").body.decode()


def test_site_space_conditions_read_unsigned_claims_from_the_query_and_then_a_cookie(world: World):
    spaces = world.api.get(world.site("/site-spaces"), token=world.ada.token).json()["items"]
    api_site_space = next(ss for ss in spaces if ss["space"]["id"] == world.api_space)
    changed = world.api.patch(world.site(f"/site-spaces/{api_site_space['id']}"), token=world.ada.token,
                              body={"condition": 'visitor.claims.unsigned.tier == "pro"'})
    assert changed.status == 200, changed.body
    assert 'href="/sites/acme/docs/api"' not in world.text("")
    assert "<h1>API</h1>" not in world.get("/api").body.decode()
    pro = world.get("?visitor.tier=pro")
    assert 'href="/sites/acme/docs/api"' in pro.body.decode()
    cookie = cookie_of(pro, f"bindery-unsigned-{world.site_id}")
    assert "<h1>API</h1>" in world.text("/api", headers={"Cookie": cookie})
    assert pro.headers["Cache-Control"] == "private, no-cache"  # the page is this visitor's


def test_if_blocks_in_pages_are_decided_by_the_visitors_claims(world: World):
    anonymous = world.get("/reference/options")
    assert "Every option." in anonymous.body.decode()
    assert "Pro settings." not in anonymous.body.decode()
    pro = world.get("/reference/options?visitor.pro=true")
    assert "Pro settings." in pro.body.decode()
    assert pro.headers["ETag"] != anonymous.headers["ETag"]  # a cached copy is per claims
    cookie = cookie_of(pro, f"bindery-unsigned-{world.site_id}")
    assert "Pro settings." in world.text("/reference/options", headers={"Cookie": cookie})


def test_an_organization_hostname_is_unique(world: World):
    other = world.api.org_admin("Bob", "Other")
    taken = world.api.patch(f"/orgs/{other.org_id}", token=other.token, body={"hostname": "acme"})
    assert taken.status == 400
    assert "hostname" in taken.json()["error"]["message"]
    moved = world.api.patch(f"/orgs/{world.ada.org_id}", token=world.ada.token, body={"hostname": "acme-2"})
    assert moved.status == 200
    assert world.get("/install", prefix="/sites/acme-2/docs").status == 200
    assert world.get("/install").status == 404
    freed = world.api.patch(f"/orgs/{other.org_id}", token=other.token, body={"hostname": "acme"})
    assert freed.status == 200
