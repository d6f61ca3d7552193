"""A published page as Markdown for AI tools (docs/agents.md): `{page URL}.md`, refused exactly where the
HTML page is refused (unpublished, share-link without its key, visitor-auth without a valid token, a
section the visitor's claims hide), off with `agentsContext: excluded`, and the page actions of the
HTML page (`pageActions.markdown`, `pageActions.mcp`)."""

from __future__ import annotations

import copy
import time

import jwt
import pytest

from bindery.domain.sites.customization import DEFAULT
from bindery.store import blobs
from bindery.store import revisions as revision_store
from tests.api.sites.test_site_sections import add_section
from tests.site_pages.served.conftest import World
from tests.site_pages.served.test_site_visibility import cookie_of, publishing_auth, token

# Every case on DynamoDB Local too (the issue asks each refusal of both engines).
pytestmark = pytest.mark.repository

MARKDOWN = "text/markdown; charset=utf-8"
ORIGIN = "http://127.0.0.1:3000"
AGENT_PATHS = ("/install/linux.md", "/install.md", "/secret.md", "/llms.txt", "/llms-full.txt")


def statuses(world: World, query: str = "", **kw) -> dict[str, tuple[int, int]]:
    """For each agent path, its status beside the HTML page's (the same path without `.md`; the site's
    first page for llms.txt and llms-full.txt)."""
    out = {}
    for path in AGENT_PATHS:
        html = path.removesuffix(".md") if path.endswith(".md") else ""
        out[path] = (world.get(path + query, **kw).status, world.get(html + query, **kw).status)
    return out


def test_a_page_with_md_appended_is_its_markdown_headed_by_the_sites_llms_txt(world: World):
    reply = world.get("/install/linux.md")
    assert reply.status == 200
    assert reply.headers["Content-Type"] == MARKDOWN
    assert reply.headers["Cache-Control"] == "public, max-age=60"
    first, _, rest = reply.body.decode().partition("\n")
    assert f"{ORIGIN}/sites/acme/docs/llms.txt" in first
    assert rest.lstrip().startswith("# On Linux\n\nUse apt to install **buffer** plugins.")


def test_markdown_links_are_absolute_and_lead_to_markdown(world: World):
    welcome = world.text("/readme.md")
    # The content-ref to install/linux.md, as the site's URL of that page's Markdown.
    assert f"{ORIGIN}/sites/acme/docs/install/linux.md" in welcome
    install = world.text("/install.md")
    assert f"{ORIGIN}/sites/acme/docs/~site/files/" in install  # the image, through the site's file route


def test_a_group_leads_to_its_first_pages_markdown_and_a_hidden_page_has_markdown(world: World):
    group = world.get("/reference.md")
    assert (group.status, group.headers["Location"]) == (301, "/sites/acme/docs/reference/options.md")
    assert "Not in the sidebar." in world.text("/secret.md")
    assert world.get("/no/such/page.md").status == 404
    folder = world.get("/install/README.md")  # a repository file's path, not a page: the HTML route's
    assert (folder.status, folder.headers["Location"]) == (301, "/sites/acme/docs/install")


def test_if_blocks_are_decided_by_the_visitors_claims_as_on_the_html_page(world: World):
    anonymous = world.text("/reference/options.md")
    assert "Every option." in anonymous
    assert "Pro settings." not in anonymous
    assert "{% if" not in anonymous
    assert "Pro settings." in world.text("/reference/options.md?visitor.pro=true")


def test_expressions_are_written_as_their_values_for_the_visitor_as_on_the_html_page(world: World):
    assert "Your plan: pro." in world.text("/reference/options?visitor.plan=pro")  # the HTML page
    assert "Your plan: pro." in world.text("/reference/options.md?visitor.plan=pro")
    assert "visitor.claims" not in world.text("/reference/options.md")


def test_an_unpublished_site_has_no_markdown(world: World):
    assert world.api.post(world.site("/unpublish"), token=world.ada.token).status == 200
    assert set(statuses(world).values()) == {(404, 404)}


def test_an_unlisted_sites_markdown_says_noindex(world: World):
    world.patch_site(visibility="unlisted")
    for path in AGENT_PATHS:
        reply = world.get(path)
        assert (reply.status, reply.headers["X-Robots-Tag"]) == (200, "noindex"), path
        assert reply.headers["Cache-Control"] == "private, no-cache"


def test_a_share_link_sites_markdown_needs_the_key_or_its_cookie(world: World):
    world.patch_site(visibility="share-link")
    link = world.api.post(world.site("/share-links"), token=world.ada.token, body={"name": "Bots"}).json()
    key = link["urls"]["published"].split("shareKey=")[1]
    assert set(statuses(world).values()) == {(404, 404)}
    assert set(statuses(world, "?shareKey=wrong").values()) == {(404, 404)}
    assert set(statuses(world, f"?shareKey={key}").values()) == {(200, 200)}
    cookie = cookie_of(world.get(f"/install.md?shareKey={key}"), f"bindery-share-{world.site_id}")
    assert set(statuses(world, headers={"Cookie": cookie}).values()) == {(200, 200)}


def test_a_visitor_auth_sites_markdown_needs_a_valid_token(world: World):
    key = publishing_auth(world)["privateKey"]
    world.patch_site(visibility="visitor-auth")
    assert set(statuses(world).values()) == {(401, 401)}
    wrong_key = token("a-key-of-another-site-0123456789abcdef")
    assert set(statuses(world, f"?jwt_token={wrong_key}").values()) == {(401, 401)}
    unsigned = jwt.encode({"exp": int(time.time()) + 600}, None, algorithm="none")
    assert set(statuses(world, f"?jwt_token={unsigned}").values()) == {(401, 401)}
    assert set(statuses(world, f"?jwt_token={token(key)}").values()) == {(200, 200)}


def test_a_section_hidden_by_its_condition_has_no_markdown(world: World):
    key = publishing_auth(world)["privateKey"]
    world.patch_site(visibility="visitor-auth")
    add_section(world.api, world.ada, world.site_id, spaceId=world.guide, title="Guide")
    beta = add_section(world.api, world.ada, world.site_id, spaceId=world.api_space, title="Beta API")
    changed = world.api.patch(world.site(f"/sections/{beta['id']}"), token=world.ada.token,
                              body={"condition": "visitor.claims.beta == true"})
    assert changed.status == 200, changed.body
    plain, tester = token(key, beta=False), token(key, beta=True)
    assert world.get(f"/beta-api/readme.md?jwt_token={plain}").status == 404
    assert world.get(f"/beta-api/readme?jwt_token={plain}").status == 404
    assert "# API" in world.text(f"/beta-api/readme.md?jwt_token={tester}")
    assert "/beta-api/" not in world.text(f"/llms.txt?jwt_token={plain}")
    assert f"{ORIGIN}/sites/acme/docs/beta-api/readme.md" in world.text(f"/llms.txt?jwt_token={tester}")
    assert "/beta-api/" not in world.text(f"/llms-full.txt?jwt_token={plain}")
    full = world.text(f"/llms-full.txt?jwt_token={tester}")
    assert f"Source: {ORIGIN}/sites/acme/docs/beta-api/readme" in full


def test_agents_context_excluded_turns_markdown_and_llms_txt_off(world: World):
    world.patch_site(agentsContext="excluded")
    for path in AGENT_PATHS:
        reply = world.get(path)
        assert (reply.status, reply.headers["X-Robots-Tag"]) == (404, "noindex"), path
    page = world.text("/install/linux")
    assert "View as Markdown" not in page
    assert "Connect with MCP" not in page


def customize(world: World, **page_actions: bool) -> None:
    body = copy.deepcopy(DEFAULT)
    body["pageActions"] = {**body["pageActions"], **page_actions}
    assert world.api.put(world.site("/customization"), token=world.ada.token, body=body).status == 200


def test_page_actions_decide_the_markdown_and_mcp_links_of_the_html_page(world: World):
    page = world.text("/install/linux")
    assert '<a class="page-action" href="/sites/acme/docs/install/linux.md"' in page
    assert f'href="{ORIGIN}/sites/acme/docs/~gitbook/mcp"' in page
    customize(world, markdown=False)
    page = world.text("/install/linux")
    assert "View as Markdown" not in page
    assert "Connect with MCP" in page
    assert world.get("/install/linux.md").status == 200  # the link is hidden; the Markdown is still there
    customize(world, markdown=True, mcp=False)
    page = world.text("/install/linux")
    assert ("View as Markdown" in page, "Connect with MCP" in page) == (True, False)


@pytest.mark.parametrize("path", ["/install/linux", "/reference/options"])
def test_a_markdown_page_costs_no_more_requests_than_its_html_page(world: World, request_counter, path):
    def cold(url: str) -> dict[str, int]:
        revision_store.clear_cache()
        blobs.clear_cache()
        request_counter.clear()
        assert world.get(url).status == 200
        return dict(request_counter)

    def warm(url: str) -> dict[str, int]:
        request_counter.clear()
        assert world.get(url).status == 200
        return dict(request_counter)

    # The guards of the organization's hostname and the basename, the structure's Query, the spaces'
    # BatchGetItem, and cold: the revision, the tree and the page's document.
    assert cold(path + ".md") == cold(path) == {"GetItem": 5, "Query": 1, "BatchGetItem": 1}
    assert warm(path + ".md") == warm(path) == {"GetItem": 2, "Query": 1, "BatchGetItem": 1}
