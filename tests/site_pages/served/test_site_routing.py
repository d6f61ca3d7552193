"""Routing of published sites' pages (docs/published-sites.md, "Addresses" and "Routing"): the site an
address names, site spaces and sections, page paths, redirects from `.gitbook.yaml` and from Git Sync
file paths, and the 404 pages."""

from __future__ import annotations

import re

from bindery.platform import admin
from tests.api.sites.test_site_sections import add_group, add_section
from tests.site_pages.served.conftest import World


def test_the_site_root_shows_the_first_page_with_the_page_tree_and_the_current_page_marked(world: World):
    page = world.text("")
    assert "<h1>Welcome</h1>" in page
    assert '<a href="/sites/acme/docs/readme" aria-current="page">Welcome</a>' in page
    assert 'href="/sites/acme/docs/install/linux"' in page  # nested pages are in the tree
    assert "<span>Reference</span>" in page  # a group heads its pages
    assert 'rel="next" href="/sites/acme/docs/install"' in page


def test_a_content_ref_card_links_the_page_by_its_title(world: World):
    page = world.text("")
    card = page[page.index('href="/sites/acme/docs/install/linux"', page.index("<article")):]
    assert card.split("</a>", 1)[0].endswith('<span class="bd-content-ref-title">On Linux</span>')


def test_a_nested_page_by_its_path_with_previous_and_next(world: World):
    page = world.text("/install/linux")
    assert "<h1>On Linux</h1>" in page
    assert 'rel="prev" href="/sites/acme/docs/install"' in page
    assert 'rel="next" href="/sites/acme/docs/reference/options"' in page  # the hidden page is skipped


def test_a_hidden_page_is_served_but_left_out_of_the_navigation(world: World):
    assert "<h1>Secret</h1>" in world.text("/secret")
    assert "/sites/acme/docs/secret" not in world.text("/install")


def test_another_site_space_by_its_path_and_the_variants_beside_it(world: World):
    page = world.text("/api")
    assert "<h1>API</h1>" in page
    assert '<a href="/sites/acme/docs/api" aria-current="true" class="current">API</a>' in page
    assert '<a href="/sites/acme/docs">Guide</a>' in page


def test_a_group_path_leads_to_its_first_page(world: World):
    reply = world.get("/reference")
    assert (reply.status, reply.headers["Location"]) == (301, "/sites/acme/docs/reference/options")


def test_gitbook_yaml_redirects_and_git_file_paths_lead_to_the_page(world: World):
    reply = world.get("/old/start")  # .gitbook.yaml: old/start -> install/README.md
    assert (reply.status, reply.headers["Location"]) == (301, "/sites/acme/docs/install")
    reply = world.get("/install/README.md")  # the page's file in the repository
    assert (reply.status, reply.headers["Location"]) == (301, "/sites/acme/docs/install")
    # `install/linux.md` is also the page's URL with `.md`: that is its Markdown (test_site_markdown.py).
    assert world.get("/install/linux.md").headers["Content-Type"] == "text/markdown; charset=utf-8"


def test_unknown_pages_sites_and_organizations_are_404_pages(world: World):
    missing = world.get("/no/such/page")
    assert missing.status == 404
    assert "Page not found" in missing.body.decode()
    assert 'href="/sites/acme/docs/install"' in missing.body.decode()  # with the site's navigation
    for prefix in ("/sites/acme/nothing", "/sites/nobody/docs", "/sites/acme"):
        reply = world.get("", prefix=prefix)
        assert reply.status == 404, prefix
        assert "Page not found" in reply.body.decode()


def test_the_organization_id_and_the_site_id_address_the_site_too(world: World):
    page = world.text("/install", prefix=f"/sites/{world.ada.org_id}/{world.site_id}")
    assert f'href="/sites/{world.ada.org_id}/{world.site_id}/install/linux"' in page


def test_a_site_of_another_organization_is_not_found_under_this_one(world: World):
    other = world.api.org_admin("Bob", "Other")
    assert world.get("/install", prefix=f"/sites/{other.org_id}/{world.site_id}").status == 404


def test_a_custom_hostname_serves_the_site_at_its_root(world: World):
    # The gateway stands in for the API's stage; behind a custom domain the path has no org or site.
    admin.set_site_hostname(world.site_id, "docs.acme.test")
    page = world.text("/install", prefix="/sites", headers={"Host": "docs.acme.test"})
    assert 'href="/install/linux"' in page
    assert world.get("/install", prefix="/sites", headers={"Host": "unknown.acme.test"}).status == 404
    admin.set_site_hostname(world.site_id, None)
    assert world.get("/install", prefix="/sites", headers={"Host": "docs.acme.test"}).status == 404


def test_sections_are_routed_by_their_path(world: World):
    add_section(world.api, world.ada, world.site_id, spaceId=world.guide, title="Product")
    reference = add_section(world.api, world.ada, world.site_id, spaceId=world.api_space,
                            title="Reference API")
    add_group(world.api, world.ada, world.site_id, title="More", sections=[reference["id"]])
    home = world.text("")
    assert re.search(r'<span class="section-group">More:\s*<a href="/sites/acme/docs/reference-api">', home)
    assert re.search(r'<a href="/sites/acme/docs" aria-current="true" class="current">Product</a>', home)
    assert '<a href="/sites/acme/docs/reference-api">Reference API</a>' in home
    assert "<h1>API</h1>" in world.text("/reference-api")
    assert "<h1>On Linux</h1>" in world.text("/install/linux")


def test_a_file_link_redirects_to_the_file_bytes(world: World):
    files = world.api.get(f"/spaces/{world.guide}/content/files", token=world.ada.token).json()["items"]
    reply = world.get(f"/~site/files/{files[0]['id']}")
    assert reply.status == 302
    assert "spaces/" in reply.headers["Location"]
    assert world.get("/~site/files/nothing").status == 404


def test_a_page_link_of_another_site_space_redirects_to_the_page(world: World):
    pages = world.api.get(f"/spaces/{world.api_space}/content/pages", token=world.ada.token).json()["pages"]
    reply = world.get(f"/api/~site/page/{pages[0]['id']}")
    assert (reply.status, reply.headers["Location"]) == (302, "/sites/acme/docs/api/readme")


def test_stylesheets_are_served_for_every_site(world: World):
    reply = world.get("/~site/site.css")
    assert reply.status == 200
    assert reply.headers["Content-Type"].startswith("text/css")
    assert "--primary" in reply.body.decode()


def test_document_text_reaches_the_page_escaped_and_without_script(world: World):
    for path in ("", "/reference/options"):
        page = world.text(path)
        assert "<script" not in page.lower()
    assert "a &lt; b &amp; c" in world.text("")
