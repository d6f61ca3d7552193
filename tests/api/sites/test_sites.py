"""Docs sites and their site spaces (ORG/sites, SITE, SITE/site-spaces): docs/sites.md."""

from __future__ import annotations

import pytest

from tests.api.members.test_members import error, join, pages
from tests.api.spaces.test_spaces import new_space


def new_site(api, who, status=201, **body):
    reply = api.post(f"/orgs/{who.org_id}/sites", token=who.token, body=body)
    assert reply.status == status, reply.body
    return reply.json()


def site_path(who, site_id, rest=""):
    return f"/orgs/{who.org_id}/sites/{site_id}{rest}"


def site_spaces(api, who, site_id, **query):
    reply = api.get(site_path(who, site_id, "/site-spaces"), token=who.token, query=query)
    assert reply.status == 200, reply.body
    return reply.json()


def test_create_a_site_in_the_spec_shape_with_a_site_space_per_space(api):
    ada = api.org_admin()
    guide, api_docs = new_space(api, ada, title="User Guide")["id"], new_space(api, ada, title="API")["id"]
    site = new_site(api, ada, title="Docs", spaces=[guide, api_docs])
    assert (site["object"], site["type"], site["title"], site["visibility"]) == (
        "site", "basic", "Docs", "public")
    assert (site["published"], site["siteSpaces"], site["agentsContext"], site["features"]) == (
        False, 2, "included", [])
    assert site["urls"]["location"].endswith(f"/orgs/{ada.org_id}/sites/{site['id']}")
    assert "published" not in site["urls"]
    listed = site_spaces(api, ada, site["id"])
    assert listed["count"] == 2
    assert [(s["space"]["id"], s["path"], s["title"], s["default"]) for s in listed["items"]] == [
        (guide, "user-guide", "User Guide", True), (api_docs, "api", "API", False)]
    assert api.get(site_path(ada, site["id"]), token=ada.token).json() == site
    bare = new_site(api, ada)
    assert (bare["title"], bare["siteSpaces"]) == ("Untitled site", 0)


def test_spaces_must_be_the_organizations_and_readable_and_nothing_is_written_otherwise(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    theirs = new_space(api, olga)["id"]
    mine = new_space(api, ada)["id"]
    for spaces in ([mine, theirs], ["no-such-space"]):
        assert "spaces" in error(api.post(f"/orgs/{ada.org_id}/sites", token=ada.token,
                                          body={"spaces": spaces}), 400)
    assert api.get(f"/orgs/{ada.org_id}/sites", token=ada.token).json() == {"items": [], "count": 0}


@pytest.mark.parametrize(("body", "named"), [
    ({"title": "x"}, "title"), ({"type": "gold"}, "type"), ({"visibility": "private"}, "visibility"),
    ({"spaces": "abc"}, "spaces"),
])
def test_bad_create_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    assert named in error(api.post(f"/orgs/{ada.org_id}/sites", token=ada.token, body=body), 400)


def test_members_read_admins_manage_and_other_organizations_see_nothing(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    site = new_site(api, ada, title="Docs")
    assert api.get(site_path(ada, site["id"]), token=bob.token).status == 200
    listed = api.get(f"/orgs/{ada.org_id}/sites", token=bob.token).json()["items"]
    assert [s["id"] for s in listed] == [site["id"]]
    assert "admin" in error(api.post(f"/orgs/{ada.org_id}/sites", token=bob.token, body={}), 403)
    renamed = api.patch(site_path(ada, site["id"]), token=bob.token, body={"title": "Mine"})
    assert "admin" in error(renamed, 403)
    assert "admin" in error(api.post(site_path(ada, site["id"], "/publish"), token=bob.token), 403)
    olga = api.org_admin("Olga", "Other")
    error(api.get(site_path(ada, site["id"]), token=olga.token), 404)
    error(api.get(f"/orgs/{ada.org_id}/sites", token=olga.token), 404)
    # A site named under another organization (even the caller's own) does not exist there.
    error(api.get(site_path(olga, site["id"]), token=olga.token), 404)
    error(api.get(site_path(ada, "no-such-site"), token=ada.token), 404)


def test_listing_filters_counts_and_pages(api):
    ada = api.org_admin()
    space = new_space(api, ada)["id"]
    docs = new_site(api, ada, title="Product docs", spaces=[space])
    blog = new_site(api, ada, title="Blog")
    help_ = new_site(api, ada, title="Help center", type="premium")
    api.post(site_path(ada, blog["id"], "/publish"), token=ada.token)
    path = f"/orgs/{ada.org_id}/sites"

    def ids(**query):
        body = api.get(path, token=ada.token, query=query).json()
        return [s["id"] for s in body["items"]], body["count"]

    assert ids() == ([docs["id"], blog["id"], help_["id"]], 3)
    assert ids(title="DOCS") == ([docs["id"]], 1)
    assert ids(published="true") == ([blog["id"]], 1)
    assert ids(published="false") == ([docs["id"], help_["id"]], 2)
    assert ids(type="premium") == ([help_["id"]], 1)
    assert ids(space=space) == ([docs["id"]], 1)
    listed = pages(api, path, ada.token, limit=1)
    assert [s["id"] for page in listed for s in page["items"]] == [docs["id"], blog["id"], help_["id"]]
    assert {page["count"] for page in listed} == {3}
    cursor = listed[0]["next"]["page"]
    assert "page" in error(api.get(path, token=ada.token, query={"page": cursor, "title": "x"}), 400)


def test_patch_changes_only_what_is_sent_and_checks_each_field(api):
    ada = api.org_admin()
    space = new_space(api, ada)["id"]
    site = new_site(api, ada, title="Docs", spaces=[space])
    other = new_site(api, ada, title="Other")
    path = site_path(ada, site["id"])
    changed = api.patch(path, token=ada.token, body={
        "title": "Handbook", "visibility": "unlisted", "basename": "handbook", "agentsContext": "excluded",
        "adaptiveContent": {"enabled": True}, "proxy": "example.com/docs"}).json()
    assert (changed["title"], changed["visibility"], changed["basename"], changed["agentsContext"]) == (
        "Handbook", "unlisted", "handbook", "excluded")
    assert changed["adaptiveContent"] == {"enabled": True}
    assert changed["proxy"]["origin"] == "example.com/docs"
    assert api.patch(path, token=ada.token, body={"proxy": None}).json().get("proxy") is None
    assert api.get(path, token=ada.token).json()["title"] == "Handbook"  # the rest was kept
    # A basename is the organization's: another site cannot take it, until it is given up.
    other_path = site_path(ada, other["id"])
    assert "basename" in error(api.patch(other_path, token=ada.token, body={"basename": "handbook"}), 400)
    assert api.patch(path, token=ada.token, body={"basename": "guide"}).status == 200
    taken = api.patch(other_path, token=ada.token, body={"basename": "handbook"})
    assert taken.json()["basename"] == "handbook"
    for body, named in (({"proxy": "https://example.com/docs"}, "proxy"), ({"proxy": "example.com"}, "proxy"),
                        ({"title": None}, "title"), ({"basename": "Not OK"}, "basename"),
                        ({"defaultSiteSpace": "nope"}, "defaultSiteSpace"),
                        ({"defaultSiteSection": "nope"}, "defaultSiteSection"),
                        ({"agentsContext": "maybe"}, "agentsContext")):
        assert named in error(api.patch(path, token=ada.token, body=body), 400), body


def test_publish_and_unpublish_give_the_published_url(api):
    ada = api.org_admin()
    space = new_space(api, ada)["id"]
    site = new_site(api, ada, title="Docs", spaces=[space])
    path = site_path(ada, site["id"])
    api.patch(path, token=ada.token, body={"basename": "docs"})
    published = api.post(f"{path}/publish", token=ada.token)
    assert published.status == 200, published.body
    body = published.json()
    assert body["published"] is True
    assert body["urls"]["published"] == f"http://127.0.0.1:3000/sites/{ada.org_id}/docs"
    (only,) = site_spaces(api, ada, site["id"])["items"]
    assert only["urls"]["published"] == body["urls"]["published"]  # the default site space is the root
    assert api.patch(f"/orgs/{ada.org_id}", token=ada.token, body={"hostname": "acme"}).status == 200
    assert api.get(path, token=ada.token).json()["urls"]["published"] == "http://127.0.0.1:3000/sites/acme/docs"
    unpublished = api.post(f"{path}/unpublish", token=ada.token).json()
    assert unpublished["published"] is False
    assert "published" not in unpublished["urls"]


def test_delete_takes_everything_the_site_owns_and_is_204_when_missing(api):
    ada = api.org_admin()
    space = new_space(api, ada)["id"]
    site = new_site(api, ada, spaces=[space])
    path = site_path(ada, site["id"])
    api.patch(path, token=ada.token, body={"basename": "docs"})
    assert api.delete(path, token=ada.token).status == 204
    error(api.get(path, token=ada.token), 404)
    error(api.get(f"{path}/site-spaces", token=ada.token), 404)
    assert api.delete(path, token=ada.token).status == 204
    assert api.get(f"/orgs/{ada.org_id}/sites", token=ada.token, query={"space": space}).json()["count"] == 0
    # Its basename is free again.
    other = new_site(api, ada)
    assert api.patch(site_path(ada, other["id"]), token=ada.token, body={"basename": "docs"}).status == 200


def test_site_spaces_add_with_unique_paths_and_the_first_is_the_default(api):
    ada = api.org_admin()
    guide = new_space(api, ada, title="Guide")["id"]
    site = new_site(api, ada)
    path = site_path(ada, site["id"], "/site-spaces")
    first = api.post(path, token=ada.token, body={"spaceId": guide})
    assert first.status == 201, first.body
    made = first.json()
    assert (made["object"], made["path"], made["default"]) == ("site-space", "guide", True)
    again = api.post(path, token=ada.token, body={"spaceId": guide}).json()
    assert (again["path"], again["default"]) == ("guide-2", False)
    assert api.get(site_path(ada, site["id"]), token=ada.token).json()["siteSpaces"] == 2
    assert [s["id"] for s in site_spaces(api, ada, site["id"], default="false")["items"]] == [again["id"]]
    assert site_spaces(api, ada, site["id"], default="true")["count"] == 1
    listed = pages(api, path, ada.token, limit=1)
    assert [s["id"] for page in listed for s in page["items"]] == [first.json()["id"], again["id"]]
    assert "spaceId" in error(api.post(path, token=ada.token, body={}), 400)
    assert "spaceId" in error(api.post(path, token=ada.token, body={"spaceId": "nope"}), 400)
    in_section = api.post(path, token=ada.token, body={"spaceId": guide, "sectionId": "s"})
    assert "sectionId" in error(in_section, 400)


def test_site_space_patch_path_condition_and_space(api):
    ada = api.org_admin()
    guide, other = new_space(api, ada, title="Guide")["id"], new_space(api, ada, title="Other")["id"]
    site = new_site(api, ada, spaces=[guide, other])
    first, second = site_spaces(api, ada, site["id"])["items"]
    path = site_path(ada, site["id"], f"/site-spaces/{second['id']}")
    moved = api.patch(path, token=ada.token, body={"path": "reference", "condition": "visitor.claims.beta"})
    assert moved.status == 200, moved.body
    assert (moved.json()["path"], moved.json()["condition"]) == ("reference", "visitor.claims.beta")
    assert "path" in error(api.patch(path, token=ada.token, body={"path": "guide"}), 400)  # a sibling's
    for body, named in (({"path": "Not a path"}, "path"), ({"path": "x" * 101}, "path"),
                        ({"condition": "visitor.("}, "condition"), ({"spaceId": "nope"}, "spaceId"),
                        ({"path": None}, "path")):
        assert named in error(api.patch(path, token=ada.token, body=body), 400), body
    kept = api.patch(path, token=ada.token, body={"spaceId": guide}).json()
    assert (kept["space"]["id"], kept["path"], kept["condition"]) == (
        guide, "reference", "visitor.claims.beta")
    assert "condition" not in api.patch(path, token=ada.token, body={"condition": None}).json()
    # The old path is free again.
    assert api.patch(site_path(ada, site["id"], f"/site-spaces/{first['id']}"), token=ada.token,
                     body={"path": "other"}).status == 200
    error(api.patch(site_path(ada, site["id"], "/site-spaces/nope"), token=ada.token, body={}), 404)


def test_deleting_the_default_site_space_promotes_the_next_and_hidden_spaces_are_left_out(api):
    ada = api.org_admin()
    spaces = [new_space(api, ada, title=f"S{n}")["id"] for n in range(3)]
    site = new_site(api, ada, spaces=spaces)
    items = site_spaces(api, ada, site["id"])["items"]
    path = site_path(ada, site["id"], f"/site-spaces/{items[0]['id']}")
    assert api.delete(path, token=ada.token).status == 204
    assert api.delete(path, token=ada.token).status == 204
    left = site_spaces(api, ada, site["id"])["items"]
    assert [(s["id"], s["default"]) for s in left] == [(items[1]["id"], True), (items[2]["id"], False)]
    assert api.get(site_path(ada, site["id"]), token=ada.token).json()["siteSpaces"] == 2
    # A deleted space's site space is hidden (and back if the space is restored).
    assert api.delete(f"/spaces/{spaces[2]}", token=ada.token).status == 204
    assert [s["id"] for s in site_spaces(api, ada, site["id"])["items"]] == [items[1]["id"]]
    assert api.post(f"/spaces/{spaces[2]}/restore", token=ada.token).status == 200
    assert site_spaces(api, ada, site["id"])["count"] == 2
