"""Site sections, section groups and moves (SITE/sections, SITE/section-groups, SITE/site-spaces/…/move):
docs/sites.md."""

from __future__ import annotations

import pytest

from tests.api.members.test_members import error, join
from tests.api.sites.test_sites import new_site, site_path, site_spaces
from tests.api.spaces.test_spaces import new_space


def add_section(api, who, site_id, status=201, **body):
    reply = api.post(site_path(who, site_id, "/sections"), token=who.token, body=body)
    assert reply.status == status, reply.body
    return reply.json()


def sections(api, who, site_id, **query):
    reply = api.get(site_path(who, site_id, "/sections"), token=who.token, query=query)
    assert reply.status == 200, reply.body
    return reply.json()


def add_group(api, who, site_id, status=201, **body):
    reply = api.post(site_path(who, site_id, "/section-groups"), token=who.token, body=body)
    assert reply.status == status, reply.body
    return reply.json()


def groups(api, who, site_id):
    reply = api.get(site_path(who, site_id, "/section-groups"), token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()


@pytest.fixture
def docs(api):
    """An admin, three spaces and a site showing the first two at its root."""
    ada = api.org_admin()
    spaces = [new_space(api, ada, title=title)["id"] for title in ("Guide", "Guide FR", "API")]
    site = new_site(api, ada, title="Docs", spaces=spaces[:2])
    return ada, spaces, site["id"]


def test_the_first_section_takes_the_root_site_spaces_and_is_the_default(api, docs):
    ada, (guide, french, api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    assert (first["object"], first["title"], first["path"], first["default"]) == (
        "site-section", "Product", "product", True)
    assert [(ss["space"]["id"], ss["default"], ss["section"]) for ss in first["siteSpaces"]] == [
        (guide, True, first["id"]), (french, False, first["id"])]
    second = add_section(api, ada, site_id, spaceId=api_space, icon="code")
    assert (second["title"], second["path"], second["default"], second["icon"]) == (
        "API", "api", False, "code")
    assert [ss["space"]["id"] for ss in second["siteSpaces"]] == [api_space]
    listed = sections(api, ada, site_id)
    assert (listed["count"], [s["id"] for s in listed["items"]]) == (2, [first["id"], second["id"]])
    assert api.get(site_path(ada, site_id), token=ada.token).json()["siteSpaces"] == 3
    # A new site space with no section goes to the default section; one with a section goes there.
    extra = new_space(api, ada, title="Extra")["id"]
    added = api.post(site_path(ada, site_id, "/site-spaces"), token=ada.token, body={"spaceId": extra})
    assert added.json()["section"] == first["id"]
    there = api.post(site_path(ada, site_id, "/site-spaces"), token=ada.token,
                     body={"spaceId": extra, "sectionId": second["id"]})
    assert (there.status, there.json()["section"], there.json()["default"]) == (201, second["id"], False)
    unknown = api.post(site_path(ada, site_id, "/site-spaces"), token=ada.token,
                       body={"spaceId": extra, "sectionId": "nope"})
    assert "sectionId" in error(unknown, 400)


def test_published_urls_follow_sections_and_defaults(api, docs):
    ada, (guide, _french, api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    add_section(api, ada, site_id, spaceId=api_space, title="Reference")
    published = api.post(site_path(ada, site_id, "/publish"), token=ada.token).json()["urls"]["published"]
    listed = sections(api, ada, site_id)["items"]
    assert [s["urls"]["published"] for s in listed] == [published, f"{published}/reference"]
    assert [ss["urls"]["published"] for ss in listed[0]["siteSpaces"]] == [published, f"{published}/guide-fr"]
    assert listed[1]["siteSpaces"][0]["urls"]["published"] == f"{published}/reference"
    api.patch(site_path(ada, site_id), token=ada.token, body={"defaultSiteSection": listed[1]["id"]})
    again = sections(api, ada, site_id)["items"]
    assert [(s["default"], s["urls"]["published"]) for s in again] == [
        (False, f"{published}/product"), (True, published)]
    assert again[0]["siteSpaces"][1]["urls"]["published"] == f"{published}/product/guide-fr"
    assert first["id"] == again[0]["id"]


def test_update_a_section_and_its_errors(api, docs):
    ada, (guide, _french, api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    second = add_section(api, ada, site_id, spaceId=api_space, title="Reference")
    url = site_path(ada, site_id, f"/sections/{first['id']}")
    body = {"title": "Platform", "path": "platform", "condition": "visitor.claims.beta == true",
            "icon": "gear", "description": "All of it", "defaultSiteSpace": first["siteSpaces"][1]["id"]}
    changed = api.patch(url, token=ada.token, body=body).json()
    assert [changed[k] for k in ("title", "path", "condition", "icon", "description")] == [
        "Platform", "platform", "visitor.claims.beta == true", "gear", "All of it"]
    assert [ss["default"] for ss in changed["siteSpaces"]] == [False, True]
    kept = api.patch(url, token=ada.token, body={"title": "Platform 2"}).json()
    assert (kept["condition"], kept["icon"]) == ("visitor.claims.beta == true", "gear")
    cleared = api.patch(url, token=ada.token,
                        body={"condition": None, "icon": None, "description": None}).json()
    assert not {"condition", "icon", "description"} & set(cleared)
    for bad, named in [({"path": "reference"}, "path"), ({"path": "Not A Path"}, "path"),
                       ({"condition": "visitor.(("}, "condition"), ({"title": "x"}, "title"),
                       ({"defaultSiteSpace": second["siteSpaces"][0]["id"]}, "defaultSiteSpace"),
                       ({"title": None}, "title"), ({"icon": "x" * 51}, "icon")]:
        assert named in error(api.patch(url, token=ada.token, body=bad), 400)
    error(api.patch(site_path(ada, site_id, "/sections/nope"), token=ada.token, body={"title": "Hello"}), 404)
    assert "defaultSiteSection" in error(api.patch(site_path(ada, site_id), token=ada.token,
                                                   body={"defaultSiteSection": "nope"}), 400)


def test_the_site_default_site_space_is_the_default_sections(api, docs):
    ada, (guide, _french, api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    french_ss = first["siteSpaces"][1]["id"]
    api.patch(site_path(ada, site_id), token=ada.token, body={"defaultSiteSpace": french_ss})
    assert [ss["default"] for ss in sections(api, ada, site_id)["items"][0]["siteSpaces"]] == [False, True]
    second = add_section(api, ada, site_id, spaceId=api_space, title="Reference")
    wrong = api.patch(site_path(ada, site_id), token=ada.token,
                      body={"defaultSiteSpace": second["siteSpaces"][0]["id"]})
    assert "defaultSiteSpace" in error(wrong, 400)


def test_deleting_sections_takes_their_site_spaces_and_promotes_a_default(api, docs):
    ada, (guide, _french, api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    second = add_section(api, ada, site_id, spaceId=api_space, title="Reference")
    assert api.delete(site_path(ada, site_id, f"/sections/{first['id']}"), token=ada.token).status == 204
    left = sections(api, ada, site_id)
    assert [(s["id"], s["default"]) for s in left["items"]] == [(second["id"], True)]
    assert [ss["space"]["id"] for ss in site_spaces(api, ada, site_id)["items"]] == [api_space]
    assert api.get(site_path(ada, site_id), token=ada.token).json()["siteSpaces"] == 1
    assert api.delete(site_path(ada, site_id, f"/sections/{first['id']}"), token=ada.token).status == 204
    # The path is free again.
    again = add_section(api, ada, site_id, spaceId=guide, title="Product")
    assert again["path"] == "product"


def test_deleting_a_default_site_space_in_a_section_promotes_the_next(api, docs):
    ada, (guide, french, _api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    gone = first["siteSpaces"][0]["id"]
    assert api.delete(site_path(ada, site_id, f"/site-spaces/{gone}"), token=ada.token).status == 204
    (section,) = sections(api, ada, site_id)["items"]
    assert [(ss["space"]["id"], ss["default"]) for ss in section["siteSpaces"]] == [(french, True)]


def test_moving_sections_and_site_spaces(api, docs):
    ada, (guide, _french, api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    second = add_section(api, ada, site_id, spaceId=api_space, title="Reference")
    third = add_section(api, ada, site_id, spaceId=api_space, title="Changelog")

    def move(section_id, position=None, status=200):
        body = {} if position is None else {"position": position}
        reply = api.post(site_path(ada, site_id, f"/sections/{section_id}/move"), token=ada.token, body=body)
        assert reply.status == status, reply.body
        return reply.json()

    def order():
        return [s["title"] for s in sections(api, ada, site_id)["items"]]

    move(third["id"], {"before": {"type": "site-section", "siteSection": first["id"]}})
    assert order() == ["Changelog", "Product", "Reference"]
    move(third["id"], {"after": {"type": "site-section", "siteSection": first["id"]}})
    assert order() == ["Product", "Changelog", "Reference"]
    move(first["id"])
    assert order() == ["Changelog", "Reference", "Product"]
    assert "position" in move(first["id"], {"before": {"type": "site-section", "siteSection": "nope"}}, 400)[
        "error"]["message"]
    assert "position" in move(first["id"], {"before": {"type": "site-section", "siteSection": first["id"]}},
                              400)["error"]["message"]
    move("nope", None, 404)
    assert order() == ["Changelog", "Reference", "Product"]
    guide_ss, french_ss = (ss["id"] for ss in first["siteSpaces"])
    url = site_path(ada, site_id, f"/site-spaces/{french_ss}/move")
    moved = api.post(url, token=ada.token, body={"position": {"before": {"type": "site-space",
                                                                          "siteSpace": guide_ss}}})
    assert moved.status == 200, moved.body
    product = sections(api, ada, site_id)["items"][2]
    assert [ss["id"] for ss in product["siteSpaces"]] == [french_ss, guide_ss]
    elsewhere = {"position": {"after": {"type": "site-space", "siteSpace": second["siteSpaces"][0]["id"]}}}
    assert "position" in error(api.post(url, token=ada.token, body=elsewhere), 400)
    bad_type = {"position": {"after": {"type": "space", "siteSpace": guide_ss}}}
    assert "type" in error(api.post(url, token=ada.token, body=bad_type), 400)
    error(api.post(site_path(ada, site_id, "/site-spaces/nope/move"), token=ada.token, body={}), 404)


def test_section_groups_nest_hold_sections_and_give_them_back_when_deleted(api, docs):
    ada, (guide, _french, api_space), site_id = docs
    first = add_section(api, ada, site_id, spaceId=guide, title="Product")
    second = add_section(api, ada, site_id, spaceId=api_space, title="Reference")
    outer = add_group(api, ada, site_id, title="Learn", icon="book", sections=[first["id"]])
    assert (outer["object"], outer["title"], outer["icon"]) == ("site-section-group", "Learn", "book")
    assert [c["id"] for c in outer["children"]] == [first["id"]]
    inner = add_group(api, ada, site_id, title="Deep", parent=outer["id"])
    assert inner["sectionGroup"] == outer["id"]
    grown = api.post(site_path(ada, site_id, f"/section-groups/{inner['id']}/sections"), token=ada.token,
                     body={"sectionId": second["id"]})
    assert grown.status == 201, grown.body
    assert [c["id"] for c in grown.json()["children"]] == [second["id"]]
    listed = groups(api, ada, site_id)
    assert [g["id"] for g in listed["items"]] == [outer["id"], inner["id"]]
    (top,) = [g for g in listed["items"] if g["id"] == outer["id"]]
    assert [c["id"] for c in top["children"]] == [first["id"], inner["id"]]
    assert [s["id"] for s in top["sections"]] == [first["id"], second["id"]]
    assert {s["id"]: s.get("sectionGroup") for s in sections(api, ada, site_id)["items"]} == {
        first["id"]: outer["id"], second["id"]: inner["id"]}
    renamed = api.patch(site_path(ada, site_id, f"/section-groups/{outer['id']}"), token=ada.token,
                        body={"title": "Learning", "icon": None})
    assert (renamed.json()["title"], "icon" in renamed.json()) == ("Learning", False)
    # Removing a section that is not in the group is a 204 too, and changes nothing.
    assert api.delete(site_path(ada, site_id, f"/section-groups/{outer['id']}/sections/{second['id']}"),
                      token=ada.token).status == 204
    assert api.delete(site_path(ada, site_id, f"/section-groups/{inner['id']}/sections/{second['id']}"),
                      token=ada.token).status == 204
    assert {s["id"]: s.get("sectionGroup") for s in sections(api, ada, site_id)["items"]} == {
        first["id"]: outer["id"], second["id"]: outer["id"]}
    assert api.delete(site_path(ada, site_id, f"/section-groups/{outer['id']}"),
                      token=ada.token).status == 204
    assert {s["id"]: s.get("sectionGroup") for s in sections(api, ada, site_id)["items"]} == {
        first["id"]: None, second["id"]: None}
    assert [(g["id"], g.get("sectionGroup")) for g in groups(api, ada, site_id)["items"]] == [
        (inner["id"], None)]
    assert sections(api, ada, site_id)["count"] == 2
    assert api.delete(site_path(ada, site_id, f"/section-groups/{outer['id']}"),
                      token=ada.token).status == 204


@pytest.mark.parametrize(("body", "named"), [
    ({}, "title"), ({"title": ""}, "title"), ({"title": "x" * 101}, "title"),
    ({"title": "G", "icon": "x" * 51}, "icon"),
    ({"title": "G", "parent": "nope"}, "parent"), ({"title": "G", "sections": ["nope"]}, "sections"),
])
def test_bad_section_groups_are_400_naming_the_field(api, docs, body, named):
    ada, _, site_id = docs
    reply = api.post(site_path(ada, site_id, "/section-groups"), token=ada.token, body=body)
    assert named in error(reply, 400)
    assert groups(api, ada, site_id)["count"] == 0


def test_group_errors_and_permissions(api, docs):
    ada, (guide, _, _), site_id = docs
    section = add_section(api, ada, site_id, spaceId=guide, title="Product")
    group = add_group(api, ada, site_id, title="Learn")
    error(api.patch(site_path(ada, site_id, "/section-groups/nope"), token=ada.token,
                    body={"title": "A"}), 404)
    error(api.post(site_path(ada, site_id, "/section-groups/nope/sections"), token=ada.token,
                   body={"sectionId": section["id"]}), 404)
    assert "sectionId" in error(api.post(site_path(ada, site_id, f"/section-groups/{group['id']}/sections"),
                                         token=ada.token, body={"sectionId": "nope"}), 400)
    bob = join(api, ada.org_id, "Bob", "edit")
    assert sections(api, bob, site_id)["count"] == 1
    assert groups(api, bob, site_id)["count"] == 1
    assert "admin" in error(api.post(site_path(ada, site_id, "/section-groups"), token=bob.token,
                                     body={"title": "Mine"}), 403)
    assert "admin" in error(api.post(site_path(ada, site_id, "/sections"), token=bob.token,
                                     body={"spaceId": guide}), 403)
    olga = api.org_admin("Olga", "Other")
    error(api.get(site_path(ada, site_id, "/sections"), token=olga.token), 404)
    error(api.get(site_path(ada, site_id, "/section-groups"), token=olga.token), 404)


def test_sections_page_with_a_stable_count(api, docs):
    ada, (_guide, _, api_space), site_id = docs
    made = [add_section(api, ada, site_id, spaceId=api_space, title=f"Part {n}")["id"] for n in range(5)]
    first = sections(api, ada, site_id, limit=2)
    assert (first["count"], len(first["items"])) == (5, 2)
    seen = [s["id"] for s in first["items"]]
    cursor = first["next"]["page"]
    while cursor:
        page = sections(api, ada, site_id, limit=2, page=cursor)
        assert page["count"] == 5
        seen += [s["id"] for s in page["items"]]
        cursor = page.get("next", {}).get("page")
    assert seen == made
