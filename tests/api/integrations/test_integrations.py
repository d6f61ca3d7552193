"""Publishing, reading, listing and unpublishing integrations; development mode (docs/integrations.md)."""

from __future__ import annotations

import json

import pytest
import requests

from bindery.domain.integrations.sealed_secrets import secrets_of
from bindery.store import integrations as integration_store
from bindery.store import orgs as org_store
from tests.api.integration_support import PNG, PNG64, SCRIPT, publish, publish_body
from tests.api.members.test_members import error, join, pages


def test_a_publish_creates_version_1_then_each_publish_increments_it(api):
    ada = api.org_admin()
    first = publish(api, ada, categories=["analytics"], target="site", visibility="unlisted")
    assert (first["object"], first["name"], first["version"], first["title"]) == (
        "integration", "analytics", 1, "Analytics")
    assert (first["target"], first["visibility"], first["categories"], first["verified"]) == (
        "site", "unlisted", ["analytics"], False)
    assert first["owner"]["id"] == ada.org_id
    assert first["permissions"] == {"admin": True}
    assert first["urls"]["location"].endswith("/v1/integrations/analytics")
    second = publish(api, ada, title="Analytics 2")
    assert (second["version"], second["title"]) == (2, "Analytics 2")
    assert api.get("/integrations/analytics", token=ada.token).json() == second


def test_icon_preview_images_and_script_are_stored_and_served(api):
    ada = api.org_admin()
    shown = publish(api, ada, icon=PNG64, previewImages=[PNG64, PNG64])
    served = requests.get(shown["urls"]["icon"], timeout=5)  # moto answers presigned URLs in-process
    assert served.content == PNG
    assert len(shown["previewImages"]) == 2
    stored = integration_store.get_integration("analytics")
    assert integration_store.get_script("analytics", stored.script_digest) == SCRIPT.encode()


def test_secrets_are_encrypted_at_rest_and_never_returned(api):
    ada = api.org_admin()
    shown = publish(api, ada, secrets={"API_KEY": "sk-live-123456"})
    assert "secrets" not in shown
    assert "sk-live-123456" not in json.dumps(shown)
    stored = integration_store.get_integration("analytics")
    assert "sk-live-123456" not in json.dumps(stored.to_item())
    assert secrets_of(stored) == {"API_KEY": "sk-live-123456"}
    # A publish without secrets keeps them; one with secrets replaces them.
    publish(api, ada, title="Again")
    assert secrets_of(integration_store.get_integration("analytics")) == {"API_KEY": "sk-live-123456"}
    publish(api, ada, secrets={"OTHER": "x"})
    assert secrets_of(integration_store.get_integration("analytics")) == {"OTHER": "x"}


def test_the_publisher_is_found_by_hostname_or_subdomain_and_must_be_an_admin(api):
    ada = api.org_admin()
    org = org_store.get_org(ada.org_id)
    org.hostname = "acme.gitbook.io"
    org_store.update_org(org, [])
    reply = api.post("/integrations/by-host", token=ada.token, body=publish_body("acme.gitbook.io"))
    assert reply.status == 200, reply.body
    assert reply.json()["owner"]["id"] == ada.org_id
    assert api.post("/integrations/by-sub", token=ada.token, body=publish_body("acme")).status == 200
    assert "organization" in error(api.post("/integrations/x", token=ada.token,
                                            body=publish_body("nowhere.example")), 404)
    editor = join(api, ada.org_id, "Ed", "create")
    assert error(api.post("/integrations/by-ed", token=editor.token, body=publish_body(ada.org_id)), 403)
    olga = api.org_admin("Olga", "Other")
    assert "organization" in error(api.post("/integrations/x", token=olga.token,
                                            body=publish_body(ada.org_id)), 404)
    # Another organization cannot take over a published name.
    assert "another organization" in error(api.post("/integrations/by-host", token=olga.token,
                                                    body=publish_body(olga.org_id)), 403)


@pytest.mark.parametrize(("change", "named"), [
    ({"title": "A"}, "title"),
    ({"description": "d" * 101}, "description"),
    ({"scopes": ["space:everything"]}, "scopes"),
    ({"categories": ["games"]}, "categories"),
    ({"target": "galaxy"}, "target"),
    ({"visibility": "secret"}, "visibility"),
    ({"icon": "not base64!"}, "icon"),
    ({"icon": "aGVsbG8="}, "icon"),  # base64 of "hello": not an image
    ({"previewImages": [PNG64] * 4}, "previewImages"),
    ({"secrets": {f"k{i}": "v" for i in range(21)}}, "secrets"),
    ({"configurations": {"account": {"properties": {"n": {"type": "date"}}}}}, "configurations"),
    ({"configurations": {"account": {"properties": {"n": {"type": "number", "default": "x"}}}}},
     "configurations"),
    ({"configurations": {"account": {"properties": {}, "required": ["missing"]}}}, "configurations"),
    ({"contentSecurityPolicy": {"script-source": "'self'"}}, "contentSecurityPolicy"),
    ({"externalLinks": [{"url": "ftp://x", "label": "x"}]}, "externalLinks"),
    ({"script": "x" * 1_000_000}, "script"),  # a megabyte (issue 39): the cap is 256 KiB
    ({"script": "x" * 262_145}, "script"),
    ({"script": "é" * 131_073}, "script"),  # 131,073 characters, 262,146 bytes
])
def test_bad_publish_bodies_are_400s_naming_the_field_and_write_nothing(api, change, named):
    ada = api.org_admin()
    assert named in error(api.post("/integrations/bad", token=ada.token,
                                   body=publish_body(ada.org_id, **change)), 400)
    assert api.get("/integrations/bad", token=ada.token).status == 404


def test_a_script_of_the_documented_limit_is_accepted(api):
    ada = api.org_admin()
    script = "x" * 262_144
    assert api.post("/integrations/big", token=ada.token, body=publish_body(ada.org_id, script=script)
                    ).status == 200


def test_a_bad_name_is_a_400_to_publish_and_a_404_to_read(api):
    ada = api.org_admin()
    assert "integrationName" in error(api.post("/integrations/bad%20name", token=ada.token,
                                               body=publish_body(ada.org_id)), 400)
    assert api.get("/integrations/bad%20name", token=ada.token).status == 404
    assert api.get("/integrations/" + "a" * 101, token=ada.token).status == 404


def test_private_integrations_are_read_and_listed_only_inside_their_owner(api):
    ada = api.org_admin()
    publish(api, ada, "public-one")
    publish(api, ada, "private-one", visibility="private")
    publish(api, ada, "unlisted-one", visibility="unlisted")
    reader = join(api, ada.org_id, "Rea", "read")
    olga = api.org_admin("Olga", "Other")
    assert api.get("/integrations/private-one", token=reader.token).json()["permissions"] == {"admin": False}
    assert api.get("/integrations/private-one", token=olga.token).status == 404
    assert api.get("/integrations/unlisted-one", token=olga.token).status == 200
    # Outsiders see the owner without what only its members see.
    org = org_store.get_org(ada.org_id)
    org.email_domains = ["acme.example"]
    org_store.update_org(org, [])
    assert api.get("/integrations/public-one", token=olga.token).json()["owner"]["emailDomains"] == []
    owner = api.get("/integrations/public-one", token=reader.token).json()["owner"]
    assert owner["emailDomains"] == ["acme.example"]
    def names(who, **query):
        return [i["name"] for i in api.get("/integrations", token=who.token, query=query).json()["items"]]

    assert names(olga) == ["public-one"]
    assert names(olga, owner=ada.org_id) == ["public-one"]
    assert names(reader, owner=ada.org_id) == ["private-one", "public-one", "unlisted-one"]
    listed = api.get(f"/orgs/{ada.org_id}/integrations", token=reader.token).json()
    assert [i["name"] for i in listed["items"]] == ["private-one", "public-one", "unlisted-one"]
    assert listed["count"] == 3
    assert api.get(f"/orgs/{ada.org_id}/integrations", token=olga.token).status == 404


@pytest.mark.parametrize("listing", ["/integrations", "/orgs/{org}/integrations"])
def test_every_listing_filter_narrows_and_the_count_is_exact(api, listing):
    """Both listings take the same filters (integrations_api.listing_query)."""
    ada = api.org_admin()
    listing = listing.format(org=ada.org_id)
    publish(api, ada, "alpha", title="Alpha Stats", categories=["analytics"], scopes=["site:script:inject"],
            target="site", blocks=[{"id": "embed", "title": "Embed", "urlUnfurl": ["https://maps.example.com/x"]}])
    publish(api, ada, "beta", categories=["content"],
            contentSources=[{"id": "src", "title": "Source", "configuration": {"componentId": "c"}}])
    publish(api, ada, "gamma", categories=["analytics"], target="space")
    def names(**query):
        body = api.get(listing, token=ada.token, query=query).json()
        return [i["name"] for i in body["items"]], body["count"]

    assert names() == (["alpha", "beta", "gamma"], 3)
    assert names(search="stats") == (["alpha"], 1)
    assert names(category="analytics") == (["alpha", "gamma"], 2)
    assert names(blockDomain="maps.example.com") == (["alpha"], 1)
    assert names(blocks="true") == (["alpha"], 1)
    assert names(blocks="false") == (["beta", "gamma"], 2)
    assert names(contentSources="true") == (["beta"], 1)
    assert names(scope="site:script:inject") == (["alpha"], 1)
    assert names(target="space") == (["gamma"], 1)
    assert names(owner=ada.org_id, category="content") == (["beta"], 1)
    for name, bad in (("category", "games"), ("blockDomain", "maps example"), ("search", "s" * 101),
                      ("owner", "o" * 101), ("scope", "nothing"), ("target", "page"), ("blocks", "maybe")):
        reply = api.get(listing, token=ada.token, query={name: bad})
        assert error(reply, 400).startswith(f"Invalid request: {name}: "), name


def test_listing_pages_with_cursors(api):
    ada = api.org_admin()
    for name in ("e", "a", "d", "b", "c"):
        publish(api, ada, name)
    listed = pages(api, "/integrations", ada.token, limit=2)
    assert [i["name"] for page in listed for i in page["items"]] == ["a", "b", "c", "d", "e"]
    assert {page["count"] for page in listed} == {5}
    other = api.get("/integrations", token=ada.token, query={"limit": 2, "category": "analytics"}).json()
    cursor = api.get("/integrations", token=ada.token, query={"limit": 2}).json()["next"]["page"]
    assert "page" in error(api.get("/integrations", token=ada.token,
                                   query={"limit": 2, "category": "analytics", "page": cursor}), 400)
    assert other["count"] == 0


def test_unpublish_removes_everything_and_is_a_204_when_missing(api):
    ada = api.org_admin()
    publish(api, ada, icon=PNG64)
    editor = join(api, ada.org_id, "Ed", "create")
    assert api.delete("/integrations/analytics", token=editor.token).status == 403
    installed = api.post("/integrations/analytics/installations", token=ada.token,
                         body={"organization": ada.org_id}).json()
    assert api.delete("/integrations/analytics", token=ada.token).status == 204
    assert api.get("/integrations/analytics", token=ada.token).status == 404
    assert api.get(f"/integrations/analytics/installations/{installed['id']}", token=ada.token).status == 404
    assert api.get(f"/orgs/{ada.org_id}/installations", token=ada.token).json() == {"items": [], "count": 0}
    publish(api, ada)  # the name published again starts without the old installations' events
    assert api.get("/integrations/analytics/events", token=ada.token).json() == {"items": [], "count": 0}
    assert api.delete("/integrations/analytics", token=ada.token).status == 204
    assert api.delete("/integrations/never-was", token=ada.token).status == 204


def test_development_mode_is_set_and_cleared_by_the_owner_admins(api):
    ada = api.org_admin()
    publish(api, ada)
    reply = api.put("/integrations/analytics/dev", token=ada.token,
                    body={"tunnelUrl": "https://tunnel.example.com/abc", "all": True})
    assert reply.status == 204, reply.body
    stored = integration_store.get_integration("analytics")
    assert (stored.dev_tunnel, stored.dev_all) == ("https://tunnel.example.com/abc", True)
    publish(api, ada, title="Kept")  # a publish keeps the development mode
    assert integration_store.get_integration("analytics").dev_tunnel == "https://tunnel.example.com/abc"
    assert api.delete("/integrations/analytics/dev", token=ada.token).status == 205
    assert integration_store.get_integration("analytics").dev_tunnel is None
    assert "tunnelUrl" in error(api.put("/integrations/analytics/dev", token=ada.token, body={}), 400)
    missing = api.put("/integrations/missing/dev", token=ada.token, body={"tunnelUrl": "https://t.example"})
    assert missing.status == 404
    olga = api.org_admin("Olga", "Other")
    assert api.put("/integrations/analytics/dev", token=olga.token,
                   body={"tunnelUrl": "https://t.example"}).status == 403


def test_every_operation_needs_a_token(api):
    assert api.get("/integrations").status == 401
    assert api.post("/integrations/x", body={}).status == 401


def test_a_listing_page_is_one_query_one_count_and_one_batch_read_of_owners(api, request_counter):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    for name, who in (("a", ada), ("b", olga), ("c", ada)):
        publish(api, who, name)
    request_counter.clear()
    assert api.get("/integrations", token=ada.token).json()["count"] == 3
    # the token (authorizer), the page, its count, and the owners with Ada's memberships there
    assert request_counter == {"GetItem": 1, "Query": 2, "BatchGetItem": 1}
