"""API reference pages: the `openapi` template on an OpenAPI specification adds a `builtin:openapi`
computed page, read as document pages computed from the spec's latest version (docs/openapi.md)."""

from __future__ import annotations

import json

import yaml

from tests.api.content.test_content_template import apply, document_of
from tests.api.members.test_members import error
from tests.api.openapi.test_openapi_specs import create, specs_path
from tests.api.spaces.test_spaces import new_space
from tests.content.support import schema_errors
from tests.data_paths import REFERENCE_SPEC, ROOT

PETSTORE = (ROOT / "tests" / "data" / "openapi" / "v3.0" / "petstore.yaml").read_text()


def reference_space(api, deliver_queued, spec_ref="petstore", text=PETSTORE):
    ada = api.org_admin()
    create(api, ada, "petstore", text=text)
    deliver_queued()
    space_id = new_space(api, ada, title="API")["id"]
    ref = {"kind": "openapi", "spec": spec_ref(ada) if callable(spec_ref) else spec_ref}
    reply = apply(api, ada, space_id, {"id": "openapi", "params": {"contentRefs": {"spec": ref}}})
    assert reply.status == 201, reply.body
    return ada, space_id


def pages(api, who, space_id, **query):
    reply = api.get(f"/spaces/{space_id}/content/pages", token=who.token, query=query)
    assert reply.status == 200, reply.body
    return reply.json()["pages"]


def blocks(document, kind):
    return [node for node in document["nodes"] if node["type"] == kind]


def test_the_reference_page_shows_one_page_per_tag_computed_from_the_latest_version(api, sqs_queues,
                                                                                    deliver_queued):
    ada, space_id = reference_space(api, deliver_queued)
    spec = api.get(specs_path(ada, "/petstore"), token=ada.token).json()
    (top,) = pages(api, ada, space_id)
    assert (top["title"], top["type"], top["path"]) == ("API reference", "document", "api-reference")
    assert top["computed"]["props"] == {"doc": "info", "page": "API reference"}
    assert top["computed"]["dependencies"]["spec"] == {
        "ref": {"kind": "openapi", "spec": "petstore"},
        "value": {"object": "openapi-spec", "id": spec["id"], "slug": "petstore",
                  "lastVersion": spec["lastVersion"]}}
    assert [(p["title"], p["path"], p["computed"]["props"]) for p in top["pages"]] == [
        ("pets", "api-reference/pets", {"doc": "operations", "page": "pets"}),
        ("Models", "api-reference/models", {"doc": "models"})]
    operations = document_of(api, ada, space_id, top["pages"][0]["id"])
    assert schema_errors(operations) == []
    shown = [(b["data"]["path"], b["data"]["method"], b["data"]["ref"])
             for b in blocks(operations, "openapi-operation")]
    assert shown == [("/pets", "get", {"kind": "openapi", "spec": "petstore"}),
            ("/pets", "post", {"kind": "openapi", "spec": "petstore"}),
            ("/pets/{petId}", "get", {"kind": "openapi", "spec": "petstore"})]
    markdown = api.get(f"/spaces/{space_id}/content/path/api-reference/pets", token=ada.token,
                       query={"format": "markdown"}).json()["markdown"]
    assert "GET /pets" in markdown
    assert "How many items to return at one time" in markdown
    models = document_of(api, ada, space_id, top["pages"][1]["id"])
    assert blocks(models, "openapi-schemas")[0]["data"]["schemas"] == ["Pet", "Pets", "Error"]
    info = document_of(api, ada, space_id, top["id"])
    assert schema_errors(info) == []
    assert "Swagger Petstore" in json.dumps(info)


def test_a_new_version_shows_without_a_new_revision(api, sqs_queues, deliver_queued):
    ada, space_id = reference_space(api, deliver_queued)
    revision = api.get(f"/spaces/{space_id}", token=ada.token).json()["revision"]
    grown = yaml.safe_load(PETSTORE)
    grown["paths"]["/stores"] = {"get": {"summary": "List stores", "tags": ["stores"],
                                         "responses": {"200": {"description": "The stores"}}}}
    reply = api.put(specs_path(ada, "/petstore"), token=ada.token,
                    body={"source": {"text": json.dumps(grown)}})
    assert reply.status == 200, reply.body
    deliver_queued()
    (top,) = pages(api, ada, space_id)
    assert [p["title"] for p in top["pages"]] == ["pets", "stores", "Models"]
    assert api.get(f"/spaces/{space_id}", token=ada.token).json()["revision"] == revision
    stores = document_of(api, ada, space_id, top["pages"][1]["id"])
    assert [b["data"]["path"] for b in blocks(stores, "openapi-operation")] == ["/stores"]


def test_computed_false_shows_the_page_as_stored(api, sqs_queues, deliver_queued):
    ada, space_id = reference_space(api, deliver_queued)
    (stored,) = pages(api, ada, space_id, computed="false")
    assert (stored["type"], stored["title"]) == ("computed", "API reference")
    assert stored["computed"] == {"type": "builtin:openapi", "props": {"models": True},
                                  "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "petstore"}}}}
    assert "pages" not in stored or stored["pages"] == []
    revision = api.get(f"/spaces/{space_id}/content", token=ada.token, query={"computed": "false"}).json()
    assert revision["pages"][0]["type"] == "computed"


def test_a_spec_named_by_id_is_stored_by_slug(api, sqs_queues, deliver_queued):
    def spec_id(who):
        return api.get(specs_path(who, "/petstore"), token=who.token).json()["id"]

    ada, space_id = reference_space(api, deliver_queued, spec_ref=spec_id)
    (stored,) = pages(api, ada, space_id, computed="false")
    assert stored["computed"]["dependencies"]["spec"]["ref"] == {"kind": "openapi", "spec": "petstore"}


def test_a_deleted_spec_leaves_a_page_that_says_so(api, sqs_queues, deliver_queued):
    ada, space_id = reference_space(api, deliver_queued)
    assert api.delete(specs_path(ada, "/petstore"), token=ada.token).status == 204
    (top,) = pages(api, ada, space_id)
    assert (top["pages"], top["computed"]["dependencies"]["spec"]["value"]) == ([], None)
    assert "no OpenAPI specification 'petstore'" in json.dumps(document_of(api, ada, space_id, top["id"]))


def test_another_organizations_spec_cannot_be_referenced(api, sqs_queues, deliver_queued):
    olga = api.org_admin("Olga", "Other")
    create(api, olga, "theirs")
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    body = {"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "openapi", "spec": "theirs"}}}}
    assert "no OpenAPI specification 'theirs'" in error(apply(api, ada, space_id, body), 400)


def test_the_official_gitbook_spec_renders_every_tag(api, sqs_queues, deliver_queued):
    ada, space_id = reference_space(api, deliver_queued, text=REFERENCE_SPEC.read_text())
    (top,) = pages(api, ada, space_id)
    spec = json.loads(REFERENCE_SPEC.read_text())
    tagged = {op["tags"][0] for item in spec["paths"].values() for op in item.values()
              if isinstance(op, dict) and op.get("tags")}
    assert {p["title"] for p in top["pages"]} - {"Models"} == tagged
    for child in top["pages"][:5]:
        assert schema_errors(document_of(api, ada, space_id, child["id"])) == []
