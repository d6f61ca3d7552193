"""Link checks and file backlinks through the API: every reference of a revision with its status."""

from __future__ import annotations

import pytest

from bindery.platform.config import settings
from tests.api.content.test_content_reads import page, publish, tree
from tests.api.members.test_members import error, join
from tests.api.search.test_search import document, heading, para
from tests.api.spaces.test_spaces import new_space


def link(ref, key, text="link"):
    return {"object": "inline", "type": "link", "key": key, "data": {"ref": ref},
            "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}]}


def linking(key, *links):
    return {"object": "block", "type": "paragraph", "key": key, "data": {}, "nodes": list(links)}


def image(file_id, key):
    return {"object": "block", "type": "images", "key": key, "data": {}, "nodes": [
        {"object": "block", "type": "image", "key": f"{key}i", "isVoid": True,
         "data": {"ref": {"kind": "file", "file": file_id}}, "nodes": []}]}


FILES = [{"id": "f1", "name": "logo.png", "contentType": "image/png"},
         {"id": "f2", "name": "unused.txt", "contentType": "text/plain"}]
BYTES = {"f1": b"png", "f2": b"txt"}


def site():
    app = settings().app_url.rstrip("/")
    value = tree(page("p1", "Home"), page("p2", "Setup"),
                 page("l1", "Source", kind="link", target={"kind": "url", "url": "https://example.com"}),
                 files=FILES)
    docs = {
        "p1": document(linking("a", link({"kind": "page", "page": "p2"}, "a1"),
                               link({"kind": "anchor", "anchor": "install", "page": "p2"}, "a2"),
                               link({"kind": "anchor", "anchor": "nowhere", "page": "p2"}, "a3"),
                               link({"kind": "page", "page": "gone"}, "a4"),
                               link({"kind": "url", "url": f"{app}/s/x/page"}, "a5"),
                               link({"kind": "url", "url": "../missing.md"}, "a6")),
                       image("f1", "b"), image("nofile", "c")),
        "p2": document(heading("Install", "h"), para("Steps.", "d"),
                       linking("e", link({"kind": "page", "page": "p2"}, "e1"),
                               link({"kind": "url", "url": "https://example.com"}, "e2")),
                       image("f1", "k")),
    }
    return value, docs


@pytest.fixture
def space(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Site")["id"]
    value, docs = site()
    revision_id = publish(space_id, value, docs, files=BYTES)
    return ada, space_id, revision_id


def _by_target(items):
    out = {}
    for item in items:
        target = item.get("targetReference") or {}
        named = target.get("page") or target.get("file") or {}
        name = target.get("url") or named.get("id")
        anchor = (target.get("internalLocation") or {}).get("anchor")
        out[(name, anchor, item["relation"])] = item
    return out


def test_space_links_list_every_target_with_its_status_and_stats(api, space):
    ada, space_id, _ = space
    reply = api.get(f"/spaces/{space_id}/links", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    statuses = sorted(item["status"] for item in body["items"])
    assert statuses == ["broken"] * 4 + ["in-app"] + ["ok"] * 4
    assert body["stats"] == {"total": 9, "broken": {"total": 4}}
    assert body["count"] == 9
    found = _by_target(body["items"])
    to_setup = found[("p2", None, "reference")]
    assert to_setup["status"] == "ok"
    assert sorted(loc["page"]["id"] for loc in to_setup["locationReferences"]) == ["p1", "p2"]
    location = to_setup["locationReferences"][0]
    assert (location["kind"], location["organization"]["id"], location["space"]["id"]) == (
        "page", ada.org_id, space_id)
    assert location["internalLocation"] == {"type": "node", "node": "a1"}
    assert found[("p2", "install", "reference")]["status"] == "ok"
    assert found[("p2", "nowhere", "reference")]["status"] == "broken"
    assert found[("../missing.md", None, "reference")]["status"] == "broken"
    logo = found[("f1", None, "dependsOn")]
    assert (logo["status"], logo["targetReference"]["kind"]) == ("ok", "file")
    assert len(logo["locationReferences"]) == 2
    web = found[("https://example.com", None, "reference")]
    assert {loc["page"]["id"] for loc in web["locationReferences"]} == {"p2", "l1"}  # the link page too
    missing = [item for item in body["items"] if "targetReference" not in item]
    assert len(missing) == 2
    assert {item["status"] for item in missing} == {"broken"}


def test_the_status_filter_and_pages_of_links(api, space):
    ada, space_id, _ = space
    broken = api.get(f"/spaces/{space_id}/links", token=ada.token, query={"status": "broken"}).json()
    assert [item["status"] for item in broken["items"]] == ["broken"] * 4
    assert broken["stats"] == {"total": 9, "broken": {"total": 4}}  # stats ignore the filter
    in_app = api.get(f"/spaces/{space_id}/links", token=ada.token, query={"status": "in-app"}).json()
    assert next(item["targetReference"]["url"] for item in in_app["items"]).endswith("/s/x/page")
    invalid = api.get(f"/spaces/{space_id}/links", token=ada.token, query={"status": "x"})
    assert "status" in error(invalid, 400)
    seen, cursor = [], None
    while True:
        query = {"limit": 4, "page": cursor}
        reply = api.get(f"/spaces/{space_id}/links", token=ada.token, query=query).json()
        seen += reply["items"]
        cursor = (reply.get("next") or {}).get("page")
        if not cursor:
            break
    assert len(seen) == 9


def test_page_links_list_what_one_page_links_to(api, space):
    ada, space_id, _ = space
    reply = api.get(f"/spaces/{space_id}/content/page/p2/links", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert body["stats"] == {"total": 3, "broken": {"total": 0}}
    for item in body["items"]:
        assert [loc["page"]["id"] for loc in item["locationReferences"]] == ["p2"]
    home = api.get(f"/spaces/{space_id}/content/page/p1/links", token=ada.token, query={"status": "broken"})
    assert home.json()["stats"]["broken"]["total"] == 4
    assert len(home.json()["items"]) == 4
    assert error(api.get(f"/spaces/{space_id}/content/page/nope/links", token=ada.token), 404)


def test_file_backlinks_list_the_pages_using_the_file(api, space):
    ada, space_id, _ = space
    reply = api.get(f"/spaces/{space_id}/content/files/f1/backlinks", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert [item["page"]["id"] for item in body["items"]] == ["p1", "p2"]
    assert body["count"] == 2
    assert {item["kind"] for item in body["items"]} == {"page"}
    assert api.get(f"/spaces/{space_id}/content/files/f2/backlinks", token=ada.token).json() == {
        "items": [], "count": 0}
    assert error(api.get(f"/spaces/{space_id}/content/files/nope/backlinks", token=ada.token), 404)
    first = api.get(f"/spaces/{space_id}/content/files/f1/backlinks", token=ada.token,
                    query={"limit": 1}).json()
    rest = api.get(f"/spaces/{space_id}/content/files/f1/backlinks", token=ada.token,
                   query={"limit": 1, "page": first["next"]["page"]}).json()
    assert [first["items"][0]["page"]["id"], rest["items"][0]["page"]["id"]] == ["p1", "p2"]


def test_links_follow_the_current_revision(api, space):
    ada, space_id, _ = space
    value, docs = site()
    value["pages"].append(page("gone", "Back again"))
    publish(space_id, value, docs, files=BYTES)
    body = api.get(f"/spaces/{space_id}/links", token=ada.token).json()
    assert body["stats"]["broken"]["total"] == 3


def test_an_empty_space_has_no_links_and_outsiders_get_404(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    body = api.get(f"/spaces/{space_id}/links", token=ada.token).json()
    assert body == {"items": [], "count": 0, "stats": {"total": 0, "broken": {"total": 0}}}
    eve = api.org_admin("Eve", "Elsewhere")
    assert error(api.get(f"/spaces/{space_id}/links", token=eve.token), 404)
    rita = join(api, ada.org_id, "Rita", "read")
    assert api.get(f"/spaces/{space_id}/links", token=rita.token).status == 200


def test_change_request_variants_read_the_revision_they_are_given(api, space):
    from bindery.domain import links
    from bindery.domain.access.auth import Caller

    ada, space_id, first = space
    value, docs = site()
    docs["p2"]["nodes"].append(linking("z", link({"kind": "page", "page": "missing-too"}, "z1")))
    second = publish(space_id, value, docs, files=BYTES)
    caller = Caller(user_id=ada.user_id)
    found = links.list_links(caller, space_id, second, status=None, limit=100, page=None,
                             base_revision_id=first)
    assert found.stats == links.LinkStats(total=10, broken=5, change_request=1)
    assert found.scene.revision.id == second
    old = links.list_links(caller, space_id, first, status=None, limit=100, page=None)
    assert old.stats.broken == 4
    backlinks = links.list_file_backlinks(caller, space_id, first, "f1", limit=10, page=None)
    assert backlinks.locations.count == 2


def test_reusable_contents_are_checked_and_listed_as_their_own_locations(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Shared")["id"]
    value = tree(page("p1", "Home"), files=FILES, contents=[{"id": "rc1", "title": "Footer"}])
    footer = document(linking("r", link({"kind": "page", "page": "gone"}, "r1"),
                              link({"kind": "anchor", "anchor": "top"}, "r2")), image("f1", "ri"))
    publish(space_id, value, {"p1": document(para("Welcome.", "a"))}, reusable_documents={"rc1": footer},
            files=BYTES)
    reply = api.get(f"/spaces/{space_id}/links", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert len(body["items"]) == 3
    for item in body["items"]:  # every reference of the footer is found in the footer
        [location] = item["locationReferences"]
        assert location["kind"] == "reusable-content"
        assert location["reusableContent"]["id"] == "rc1"
    [broken] = [item for item in body["items"] if item["status"] == "broken"]
    assert "targetReference" not in broken  # the page "gone": nothing to show
    [used] = [item for item in body["items"] if "targetReference" in item]
    assert used["targetReference"]["file"]["id"] == "f1"
    # an anchor without a page points into whichever page includes the content: not judged broken
    assert body["stats"] == {"total": 3, "broken": {"total": 1}}
    backlinks = api.get(f"/spaces/{space_id}/content/files/f1/backlinks", token=ada.token).json()
    assert [(item["kind"], item["reusableContent"]["id"]) for item in backlinks["items"]] == [
        ("reusable-content", "rc1")]
    page_links = api.get(f"/spaces/{space_id}/content/page/p1/links", token=ada.token).json()
    assert page_links["items"] == []
    from tests.search.spec_schema import check

    check("listSpaceLinks", body)
    check("listSpaceFileBacklinks", backlinks)


def test_responses_match_the_reference_spec(api, space):
    from tests.search.spec_schema import check

    ada, space_id, _ = space
    check("listSpaceLinks", api.get(f"/spaces/{space_id}/links", token=ada.token).json())
    check("listPageLinksInSpace",
          api.get(f"/spaces/{space_id}/content/page/p1/links", token=ada.token).json())
    check("listSpaceFileBacklinks",
          api.get(f"/spaces/{space_id}/content/files/f1/backlinks", token=ada.token).json())
