"""`/llms.txt` and `/llms-full.txt` of a published site (docs/agents.md): llms.txt read by the llmstxt.org
format's own parser (`llms-txt`, by the format's authors), every link of it answering; llms-full.txt in
navigation order with hidden pages, bounded by its size cap; the fluentd corpus published as a site.
Refusals (share links, visitor auth, excluded sites…) are in test_site_markdown.py, beside the HTML's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from llms_txt import parse_llms_file

from bindery.engines.site_pages import llms_txt
from tests.api.sites.test_sites import new_site
from tests.data_paths import FLUENTD_CORPUS
from tests.site_pages.served.conftest import World, imported_space

ORIGIN = "http://127.0.0.1:3000"
MARKDOWN = "text/markdown; charset=utf-8"
POINTER = "> For the complete documentation index of this site, see "


def parsed(text: str):
    found = parse_llms_file(text)
    assert found is not None, text[:500]
    return found


def every_link_answers(world: World, found, *, prefix: str = "/sites/acme/docs") -> int:
    """Each page link of the parsed llms.txt answers 200 with Markdown through the gateway."""
    links = [link for section in found.sections.values() for link in section]
    for link in links:
        assert link.url.startswith(ORIGIN + prefix + "/"), link.url
        assert link.url.endswith(".md"), link.url
        reply = world.get(link.url.removeprefix(ORIGIN + prefix), prefix=prefix)
        assert (reply.status, reply.headers["Content-Type"]) == (200, MARKDOWN), link.url
    return len(links)


@pytest.mark.repository  # the main case on DynamoDB Local too
def test_llms_txt_follows_the_llmstxt_format_and_lists_the_navigation(world: World):
    reply = world.get("/llms.txt")
    assert (reply.status, reply.headers["Content-Type"]) == (200, "text/plain; charset=utf-8")
    found = parsed(reply.body.decode())
    assert found.title == "Acme Docs"
    assert found.summary  # the first page's description, or a sentence naming the site
    assert f"{ORIGIN}/sites/acme/docs/llms-full.txt" in found.info
    assert list(found.sections) == ["Guide", "API"]  # a site without sections: one per site space
    guide = [(link.title, link.url) for link in found.sections["Guide"]]
    assert guide == [("Welcome", f"{ORIGIN}/sites/acme/docs/readme.md"),
                     ("Install", f"{ORIGIN}/sites/acme/docs/install.md"),
                     ("On Linux", f"{ORIGIN}/sites/acme/docs/install/linux.md"),
                     ("Options", f"{ORIGIN}/sites/acme/docs/reference/options.md")]  # hidden Secret left out
    assert [link.url for link in found.sections["API"]] == [f"{ORIGIN}/sites/acme/docs/api/readme.md"]
    assert every_link_answers(world, found) == 5
    assert world.get("/llms-full.txt").status == 200  # the info line's link


def test_llms_txt_is_at_the_sites_root_only(world: World):
    assert world.get("/install/llms.txt").status == 404
    assert world.get("/api/llms-full.txt").status == 404


def test_llms_full_txt_is_every_pages_markdown_in_navigation_order_hidden_pages_too(world: World):
    text = world.text("/llms-full.txt")
    assert text.startswith(f"{POINTER}{ORIGIN}/sites/acme/docs/llms.txt\n")
    titles = [line for line in text.splitlines() if line.startswith("# ")]
    assert titles == ["# Welcome", "# Install", "# On Linux", "# Secret", "# Options", "# API"]
    assert f"Source: {ORIGIN}/sites/acme/docs/secret\n" in text
    assert "Not in the sidebar." in text
    assert "stops after" not in text


def test_llms_full_txt_stops_at_its_size_cap_and_says_what_it_left_out(world: World,
                                                                       monkeypatch: pytest.MonkeyPatch):
    whole = world.text("/llms-full.txt")
    cap = whole.index("# Install") + 40  # room for the first page only
    monkeypatch.setattr(llms_txt, "MAX_FULL_BYTES", cap)
    capped = world.text("/llms-full.txt")
    assert [line for line in capped.splitlines() if line.startswith("# ")] == ["# Welcome"]
    assert capped.rstrip().endswith("This file stops after 1 pages, at its size limit: the 5 other pages are "
                                     "each at their own `.md` URL, all listed in llms.txt.")
    assert len(capped.encode()) <= cap + 200  # the cap, and the closing sentence


def test_the_fluentd_corpus_published_as_a_site_has_a_valid_llms_txt_whose_links_all_answer(
        world: World, deliver_queued: Callable[[], int], tmp_path: Path):
    files = {str(path.relative_to(FLUENTD_CORPUS)): path.read_bytes()
             for path in FLUENTD_CORPUS.rglob("*") if path.is_file()}
    space = imported_space(world.api, world.ada, deliver_queued, repo=tmp_path / "fluentd.git", files=files,
                           title="Fluentd")
    site = new_site(world.api, world.ada, title="Fluentd Docs", spaces=[space])
    assert world.api.patch(f"/orgs/{world.ada.org_id}/sites/{site['id']}", token=world.ada.token,
                           body={"basename": "fluentd"}).status == 200
    assert world.api.post(f"/orgs/{world.ada.org_id}/sites/{site['id']}/publish",
                          token=world.ada.token).status == 200
    found = parsed(world.text("/llms.txt", prefix="/sites/acme/fluentd"))
    assert found.title == "Fluentd Docs"
    assert list(found.sections) == ["Fluentd"]
    assert every_link_answers(world, found, prefix="/sites/acme/fluentd") > 50


def test_at_a_custom_hostname_llms_txt_and_markdown_are_at_its_root(world: World):
    from bindery.platform import admin

    admin.set_site_hostname(world.site_id, "docs.acme.test")
    host = {"Host": "docs.acme.test", "X-Forwarded-Proto": "https"}
    found = parsed(world.text("/llms.txt", prefix="/sites", headers=host))
    assert found.sections["Guide"][2].url == "https://docs.acme.test/install/linux.md"
    markdown = world.text("/install/linux.md", prefix="/sites", headers=host)
    assert markdown.startswith("> For the complete documentation index of this site, see "
                               "https://docs.acme.test/llms.txt\n")
