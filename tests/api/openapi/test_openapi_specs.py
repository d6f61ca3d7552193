"""OpenAPI specifications (ORG/openapi, ORG/openapi/{specSlug}): docs/openapi.md. Processing itself is
tested in test_openapi_processing.py."""

from __future__ import annotations

import json

import pytest

from bindery.platform.config import settings
from bindery.store import openapi_specs as spec_store
from tests.api.members.test_members import error, join, pages
from tests.data_paths import REFERENCE_SPEC

PETSTORE_TEXT = json.dumps({"openapi": "3.0.0", "info": {"title": "Pets", "version": "1"}, "paths": {}})


def specs_path(who, rest=""):
    return f"/orgs/{who.org_id}/openapi{rest}"


def create(api, who, slug="pets", status=201, **source):
    reply = api.post(specs_path(who), token=who.token,
                     body={"slug": slug, "source": source or {"text": PETSTORE_TEXT}})
    assert reply.status == status, reply.body
    return reply.json()


def test_a_created_spec_has_the_spec_shape_and_is_pending(api, sqs_queues):
    ada = api.org_admin()
    spec = create(api, ada, "petstore", url="https://specs.example.com/petstore.yaml")
    assert (spec["object"], spec["slug"], spec["processingState"], spec["visibility"]) == (
        "openapi-spec", "petstore", "pending", "private")
    assert spec["sourceURL"] == "https://specs.example.com/petstore.yaml"
    assert spec["permissions"] == {"view": True, "edit": True}
    assert spec["urls"]["location"].endswith(f"/v1/orgs/{ada.org_id}/openapi/petstore")
    assert "published" not in spec["urls"]
    assert "lastVersion" not in spec
    assert api.get(specs_path(ada, "/petstore"), token=ada.token).json() == spec
    text = create(api, ada, "gitbook", text=REFERENCE_SPEC.read_text())
    assert "sourceURL" not in text


def test_slugs_are_unique_in_an_organization_and_checked(api, sqs_queues):
    ada = api.org_admin()
    create(api, ada, "pets")
    assert "slug" in error(api.post(specs_path(ada), token=ada.token,
                                    body={"slug": "pets", "source": {"text": PETSTORE_TEXT}}), 400)
    olga = api.org_admin("Olga", "Other")
    create(api, olga, "pets")  # another organization's slugs are its own
    assert [s["slug"] for s in api.get(specs_path(ada), token=ada.token).json()["items"]] == ["pets"]


@pytest.mark.parametrize(("body", "named"), [
    ({"slug": "Not Valid", "source": {"text": "x"}}, "slug"),
    ({"slug": "a" * 101, "source": {"text": "x"}}, "slug"),
    ({"slug": "pets"}, "source"),
    ({"slug": "pets", "source": {}}, "source"),
    ({"slug": "pets", "source": {"text": ""}}, "source.text"),
    ({"slug": "pets", "source": {"url": "ftp://specs.example.com/a.yaml"}}, "source.url"),
    ({"slug": "pets", "source": {"url": "https://x.example/" + "a" * 2048}}, "source.url"),
    ({"slug": "pets", "source": {"url": "https://x.example/a", "text": "x"}}, "source"),
])
def test_bad_bodies_are_400s_naming_the_field_and_write_nothing(api, sqs_queues, body, named):
    ada = api.org_admin()
    assert named in error(api.post(specs_path(ada), token=ada.token, body=body), 400)
    assert api.get(specs_path(ada), token=ada.token).json() == {"items": [], "count": 0}


def test_a_url_on_a_private_network_is_refused_when_created(api, sqs_queues):
    ada = api.org_admin()
    message = error(api.post(specs_path(ada), token=ada.token,
                             body={"slug": "internal", "source": {"url": "http://10.0.0.7/spec.json"}}), 400)
    assert "source.url" in message
    assert "private" in message
    assert api.get(specs_path(ada, "/internal"), token=ada.token).status == 404


def test_listing_pages_by_slug_with_the_count(api, sqs_queues):
    ada = api.org_admin()
    for slug in ("delta", "alpha", "charlie", "bravo", "echo"):
        create(api, ada, slug)
    seen = pages(api, specs_path(ada), ada.token, limit=2)
    assert [[s["slug"] for s in body["items"]] for body in seen] == [
        ["alpha", "bravo"], ["charlie", "delta"], ["echo"]]
    assert {body["count"] for body in seen} == {5}


def test_put_creates_then_replaces_the_source_and_queues_a_new_job(api, sqs_queues):
    ada = api.org_admin()
    path = specs_path(ada, "/pets")
    created = api.put(path, token=ada.token, body={"source": {"text": PETSTORE_TEXT}})
    assert created.status == 201, created.body
    first_job = spec_store.get_spec(ada.org_id, "pets").job
    updated = api.put(path, token=ada.token, body={"source": {"url": "https://specs.example.com/pets.json"}})
    assert updated.status == 200, updated.body
    assert updated.json()["id"] == created.json()["id"]
    assert (updated.json()["sourceURL"], updated.json()["processingState"]) == (
        "https://specs.example.com/pets.json", "pending")
    stored = spec_store.get_spec(ada.org_id, "pets")
    assert stored.job != first_job
    assert stored.source_digest is None
    assert "source" in error(api.put(path, token=ada.token, body={"source": {"text": ""}}), 400)


def test_visibility_changes_with_patch(api, sqs_queues):
    ada = api.org_admin()
    create(api, ada)
    reply = api.patch(specs_path(ada, "/pets"), token=ada.token, body={"visibility": "public"})
    assert reply.status == 200, reply.body
    assert reply.json()["visibility"] == "public"
    assert api.get(specs_path(ada, "/pets"), token=ada.token).json()["visibility"] == "public"
    assert "visibility" in error(api.patch(specs_path(ada, "/pets"), token=ada.token,
                                           body={"visibility": "secret"}), 400)
    assert error(api.patch(specs_path(ada, "/nope"), token=ada.token, body={"visibility": "public"}), 404)


def test_delete_removes_the_spec_and_a_missing_one_is_204_too(api, sqs_queues):
    ada = api.org_admin()
    create(api, ada)
    assert api.delete(specs_path(ada, "/pets"), token=ada.token).status == 204
    assert error(api.get(specs_path(ada, "/pets"), token=ada.token), 404)
    assert api.delete(specs_path(ada, "/pets"), token=ada.token).status == 204
    assert api.get(specs_path(ada), token=ada.token).json() == {"items": [], "count": 0}
    create(api, ada)  # the slug is free again
    assert api.get(specs_path(ada), token=ada.token).json()["count"] == 1


def test_a_spec_created_where_no_queue_is_configured_is_taken_back(api, monkeypatch):
    """Nothing would ever process it: the deployment's fault (500, not the client's), and no spec stays
    pending for good."""
    monkeypatch.delenv("BINDERY_OPENAPI_QUEUE_URL", raising=False)
    settings.cache_clear()
    ada = api.org_admin()
    create(api, ada, status=500)
    assert api.get(specs_path(ada), token=ada.token).json() == {"items": [], "count": 0}
    settings.cache_clear()


def test_readers_see_specs_and_only_creators_change_them(api, sqs_queues):
    ada = api.org_admin()
    create(api, ada)
    rita = join(api, ada.org_id, "Rita", "read")
    seen = api.get(specs_path(rita, "/pets"), token=rita.token)
    assert seen.status == 200
    assert seen.json()["permissions"] == {"view": True, "edit": False}
    assert error(api.post(specs_path(rita), token=rita.token,
                          body={"slug": "mine", "source": {"text": PETSTORE_TEXT}}), 403)
    assert error(api.put(specs_path(rita, "/pets"), token=rita.token,
                         body={"source": {"text": PETSTORE_TEXT}}), 403)
    assert error(api.patch(specs_path(rita, "/pets"), token=rita.token, body={"visibility": "public"}), 403)
    assert error(api.delete(specs_path(rita, "/pets"), token=rita.token), 403)
    carl = join(api, ada.org_id, "Carl", "create")
    assert create(api, carl, "carls")["permissions"]["edit"] is True


def test_another_organization_sees_nothing(api, sqs_queues):
    ada = api.org_admin()
    create(api, ada)
    olga = api.org_admin("Olga", "Other")
    for call in (api.get(specs_path(ada), token=olga.token),
                 api.get(specs_path(ada, "/pets"), token=olga.token),
                 api.get(specs_path(ada, "/pets/versions"), token=olga.token),
                 api.patch(specs_path(ada, "/pets"), token=olga.token, body={"visibility": "public"}),
                 api.delete(specs_path(ada, "/pets"), token=olga.token)):
        assert error(call, 404)
    assert api.get(specs_path(ada, "/pets"), token=ada.token).status == 200


def test_versions_of_a_missing_spec_are_404s(api, sqs_queues):
    ada = api.org_admin()
    for rest in ("/versions", "/versions/latest", "/versions/latest/content", "/versions/abc",
                 "/versions/abc/content"):
        assert error(api.get(specs_path(ada, "/nope" + rest), token=ada.token), 404)
    create(api, ada)  # a spec not processed yet has no versions
    assert api.get(specs_path(ada, "/pets/versions"), token=ada.token).json() == {"items": [], "count": 0}
    assert "version" in error(api.get(specs_path(ada, "/pets/versions/latest"), token=ada.token), 404)


def test_slugs_and_version_ids_no_spec_could_have_are_404s(api, sqs_queues):
    ada = api.org_admin()
    create(api, ada)
    for rest in ("/" + "a" * 2000, "/Not%20A%20Slug", "/pets/versions/" + "v" * 2000,
                 "/pets/versions/" + "v" * 2000 + "/content"):
        assert error(api.get(specs_path(ada, rest), token=ada.token), 404)
    assert api.delete(specs_path(ada, "/" + "a" * 2000), token=ada.token).status == 204


def test_a_put_that_raced_another_is_a_409_and_the_other_stands(api, sqs_queues, monkeypatch):
    ada = api.org_admin()
    create(api, ada)
    stale = spec_store.get_spec(ada.org_id, "pets")  # what a slower request read
    winner = api.put(specs_path(ada, "/pets"), token=ada.token, body={"source": {"url": "https://a.example/x.json"}})
    assert winner.status == 200, winner.body
    monkeypatch.setattr(spec_store, "get_spec", lambda org_id, slug: stale)
    late = api.put(specs_path(ada, "/pets"), token=ada.token, body={"source": {"text": PETSTORE_TEXT}})
    assert error(late, 409)
    monkeypatch.undo()
    assert spec_store.get_spec(ada.org_id, "pets").source_url == "https://a.example/x.json"


def test_no_token_is_a_401(api, sqs_queues):
    ada = api.org_admin()
    create(api, ada)
    for method, rest in (("GET", ""), ("POST", ""), ("GET", "/pets"), ("PUT", "/pets"), ("PATCH", "/pets"),
                         ("DELETE", "/pets"), ("GET", "/pets/versions"),
                         ("GET", "/pets/versions/latest/content")):
        assert error(api.call(method, specs_path(ada, rest)), 401)


def test_reads_and_writes_cost_the_minimum_of_dynamodb_requests(api, sqs_queues, request_counter):
    ada = api.org_admin()
    create(api, ada)
    request_counter.clear()
    api.get(specs_path(ada, "/pets"), token=ada.token)
    # the token (authorizer), the organization with the membership, the spec
    assert request_counter == {"GetItem": 2, "BatchGetItem": 1}
    request_counter.clear()
    created = api.put(specs_path(ada, "/new"), token=ada.token, body={"source": {"text": PETSTORE_TEXT}})
    assert created.status == 201, created.body
    # the same reads (the spec found missing), then one transaction: spec, id alias, organization count
    assert request_counter == {"GetItem": 2, "BatchGetItem": 1, "TransactWriteItems": 1}
