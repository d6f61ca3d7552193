"""Pages are cacheable and customized (docs/published-sites.md, "Caching" and "Customization"): an ETag
from the revision and the site's settings, 304 on If-None-Match, and the customization on the page."""

from __future__ import annotations

import copy

from bindery.domain.sites.customization import DEFAULT
from tests.site_pages.served.conftest import World


def customize(world: World, **settings):
    body = {**copy.deepcopy(DEFAULT), **settings}
    reply = world.api.put(world.site("/customization"), token=world.ada.token, body=body)
    assert reply.status == 200, reply.body


def test_an_unchanged_page_is_a_304_for_its_etag(world: World):
    first = world.get("/install")
    etag = first.headers["ETag"]
    assert world.get("/install").headers["ETag"] == etag  # stable
    again = world.get("/install", headers={"If-None-Match": etag})
    assert (again.status, again.body) == (304, b"")
    assert again.headers["ETag"] == etag
    assert world.get("/install", headers={"If-None-Match": '"other"'}).status == 200
    assert world.get("/install/linux").headers["ETag"] != etag  # per page


def test_the_etag_changes_with_the_site_settings_and_structure(world: World):
    etag = world.get("/install").headers["ETag"]
    customize(world, title="Renamed Docs")
    renamed = world.get("/install", headers={"If-None-Match": etag})
    assert renamed.status == 200
    assert "Renamed Docs" in renamed.body.decode()
    later = renamed.headers["ETag"]
    world.patch_site(title="Another title")
    assert world.get("/install", headers={"If-None-Match": later}).status == 200


def test_the_customization_reaches_the_page(world: World):
    customize(world, title="Fluent Docs",
              styling={**DEFAULT["styling"], "primaryColor": {"light": "#FF5500", "dark": "#00AAFF"}},
              themes={"default": "dark", "toggeable": True},
              header={"preset": "default", "links": [],
                      "logo": {"light": "https://acme.test/light.png", "dark": "https://acme.test/dark.png"}},
              announcement={"enabled": True, "message": "New <release>", "style": "warning",
                            "link": {"title": "Read", "to": {"kind": "url", "url": "https://acme.test/news"}}},
              footer={"groups": [{"title": "Company", "links": [
                  {"title": "About", "to": {"kind": "url", "url": "https://acme.test/about"}}]}],
                  "copyright": "© Acme"})
    page = world.text("/install")
    assert "<title>Install | Fluent Docs</title>" in page
    assert '<html lang="en" data-theme="dark">' in page
    assert ":root { --primary: #FF5500; } [data-theme=\"dark\"] { --primary: #00AAFF; }" in page
    assert '<img class="logo" src="https://acme.test/dark.png" alt="">' in page
    assert 'class="announcement announcement-warning"' in page
    assert '<a href="https://acme.test/news" rel="noopener">New &lt;release&gt;</a>' in page
    assert '<a href="https://acme.test/about" rel="noopener">About</a>' in page
    assert "© Acme" in page
    light = world.text("/install?theme=light")
    assert 'data-theme="light"' in light
    assert 'src="https://acme.test/light.png"' in light


def test_a_site_space_override_customizes_its_pages_only(world: World):
    spaces = world.api.get(world.site("/site-spaces"), token=world.ada.token).json()["items"]
    api_site_space = next(ss for ss in spaces if ss["space"]["id"] == world.api_space)
    reply = world.api.patch(world.site(f"/site-spaces/{api_site_space['id']}/customization"),
                            token=world.ada.token, body={"title": "API Reference"})
    assert reply.status == 200, reply.body
    assert "<title>API | API Reference</title>" in world.text("/api")
    assert "<title>Install | Acme Docs</title>" in world.text("/install")


def directives(reply) -> dict[str, str]:
    policy = reply.headers["Content-Security-Policy"]
    return {part.split(" ", 1)[0]: part.partition(" ")[2] for part in (p.strip() for p in policy.split(";"))}


def test_frames_are_allowed_only_on_pages_of_a_site_whose_customization_frames_embeds(world: World):
    # Issue 39: `frame-src https:` was sent by every site, though embeds are links unless the
    # customization turns advanced customization on (docs/published-sites.md).
    for path in ("/install", "/nothing-here"):
        policy = directives(world.get(path))
        assert "frame-src" not in policy
        assert policy["default-src"] == "'none'"  # which refuses frames too
        assert policy["frame-ancestors"] == "'none'"
    customize(world, advancedCustomization={"enabled": True})
    assert directives(world.get("/install"))["frame-src"] == "https:"
    assert "frame-src" not in directives(world.get("/nothing-here"))
    customize(world, advancedCustomization={"enabled": False})
    assert "frame-src" not in directives(world.get("/install"))
