"""`POST /spaces/{spaceId}/content/template` (applyTemplateToSpace): templates add pages that read back
through the content API (docs/templates.md)."""

from __future__ import annotations

import json

import pytest

from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import new_space
from tests.content.support import schema_errors

SPEC = {"openapi": "3.0.0", "info": {"title": "Pet Store", "description": "Pets, bought and sold."},
        "tags": [{"name": "pets"}, {"name": "store"}],
        "paths": {"/pets": {"get": {"tags": ["pets"]}, "post": {"tags": ["pets"]}},
                  "/pets/{id}": {"delete": {"tags": ["pets"]}, "parameters": []},
                  "/orders": {"post": {"tags": ["store"]}},
                  "/health": {"get": {}}}}
SPEC_YAML = b"""openapi: 3.1.0
info: {title: Tiny}
paths:
  /ping:
    get: {summary: Ping}
"""


def apply(api, who, space_id, body):
    return api.post(f"/spaces/{space_id}/content/template", token=who.token, body=body)


def pages_of(api, who, space_id):
    reply = api.get(f"/spaces/{space_id}/content/pages", token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()["pages"]


def document_of(api, who, space_id, page_id):
    reply = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()["document"]


@pytest.fixture
def admin_space(api):
    ada = api.org_admin()
    return ada, new_space(api, ada, title="Docs")["id"]


def with_spec(space_id, data=None, name="openapi.json", content_type="application/json"):
    files = [{"id": "spec", "name": name, "contentType": content_type}]
    publish(space_id, tree(files=files), files={"spec": data or json.dumps(SPEC).encode()})


def test_blank_adds_an_empty_page(api, admin_space):
    ada, space_id = admin_space
    reply = apply(api, ada, space_id, {"id": "blank"})
    assert reply.status == 201, reply.body
    assert reply.body == b""
    [added] = pages_of(api, ada, space_id)
    assert (added["title"], added["path"], added["kind"]) == ("Untitled", "untitled", "sheet")
    assert document_of(api, ada, space_id, added["id"])["nodes"] == []


def test_getting_started_pages_read_back_as_markdown(api, admin_space):
    ada, space_id = admin_space
    before = api.get(f"/spaces/{space_id}", token=ada.token).json()["revision"]
    assert apply(api, ada, space_id, {"id": "getting-started", "params": {}}).status == 201
    pages = pages_of(api, ada, space_id)
    assert [p["title"] for p in pages] == ["Introduction", "Quickstart", "Guides"]
    assert [p["title"] for p in pages[2]["pages"]] == ["Your first guide"]
    for listed in (*pages, *pages[2]["pages"]):
        assert schema_errors(document_of(api, ada, space_id, listed["id"])) == []
    assert pages[2]["pages"][0]["path"] == "guides/your-first-guide"
    markdown = api.get(f"/spaces/{space_id}/content/path/quickstart", token=ada.token,
                       query={"format": "markdown"}).json()["markdown"]
    assert "## Install" in markdown
    assert "```bash" in markdown
    revision = api.get(f"/spaces/{space_id}/content", token=ada.token).json()
    assert revision["parents"] == [before]


def test_templates_append_after_existing_pages_without_slug_collisions(api, admin_space):
    ada, space_id = admin_space
    publish(space_id, tree(page("old", "Introduction")), {"old": doc("Mine.")})
    assert apply(api, ada, space_id, {"id": "getting-started"}).status == 201
    assert apply(api, ada, space_id, {"id": "blank"}).status == 201
    pages = pages_of(api, ada, space_id)
    assert [(p["title"], p["path"]) for p in pages] == [
        ("Introduction", "introduction"), ("Introduction", "introduction-2"), ("Quickstart", "quickstart"),
        ("Guides", "guides"), ("Untitled", "untitled")]
    assert document_of(api, ada, space_id, "old") == doc("Mine.")


def test_openapi_builds_one_page_per_tag_from_a_spec_file(api, admin_space, request_counter):
    ada, space_id = admin_space
    with_spec(space_id)
    body = {"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "file", "file": "spec"}}}}
    request_counter.clear()
    assert apply(api, ada, space_id, body).status == 201
    # authorizer GetItem; access GetItem + BatchGetItem; revision and tree (cached here: written by this
    # process); one BatchWriteItem of documents and tree, one PutItem (revision), one UpdateItem (space);
    # one Query of the integrations set up on the space (their space_content_updated events; none here).
    assert request_counter.get("BatchWriteItem") == 1
    assert request_counter.get("PutItem") == 1
    assert request_counter.get("UpdateItem") == 1
    assert request_counter.get("Query") == 1
    assert sum(request_counter.values()) <= 9
    assert "Scan" not in request_counter
    [reference] = pages_of(api, ada, space_id)
    assert reference["title"] == "API reference"
    assert [p["title"] for p in reference["pages"]] == ["pets", "store", "Endpoints"]
    intro = document_of(api, ada, space_id, reference["id"])
    assert "Pets, bought and sold." in json.dumps(intro)
    pets = document_of(api, ada, space_id, reference["pages"][0]["id"])["nodes"]
    assert [(b["type"], b["data"]["path"], b["data"]["method"]) for b in pets] == [
        ("swagger", "/pets", "get"), ("swagger", "/pets", "post"), ("swagger", "/pets/{id}", "delete")]
    assert all(b["data"]["ref"] == {"kind": "file", "file": "spec"} and b["isVoid"] for b in pets)
    for page_id in (reference["id"], *(p["id"] for p in reference["pages"])):
        assert schema_errors(document_of(api, ada, space_id, page_id)) == []


def test_openapi_reads_yaml_specs(api, admin_space):
    ada, space_id = admin_space
    with_spec(space_id, SPEC_YAML, name="openapi.yaml", content_type="application/yaml")
    body = {"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "file", "file": "spec"}}}}
    assert apply(api, ada, space_id, body).status == 201
    [reference] = pages_of(api, ada, space_id)
    [endpoints] = reference["pages"]
    [block] = document_of(api, ada, space_id, endpoints["id"])["nodes"]
    assert (block["data"]["path"], block["data"]["method"]) == ("/ping", "get")


@pytest.mark.parametrize(("body", "message"), [
    ({}, "Invalid request: id"),
    ({"id": "nope"}, "Invalid request: id"),
    ({"id": 3}, "Invalid request: id"),
    ({"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "file"}}}},
     "Invalid request: params.contentRefs.spec.file"),
    ({"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "nope", "x": 1}}}},
     "Invalid request: params.contentRefs.spec"),
    ({"id": "openapi"}, "params.contentRefs.spec: the openapi template needs the spec"),
    ({"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "url", "url": "https://x.test/o.json"}}}},
     "params.contentRefs.spec: a URL spec cannot be read"),
    ({"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "page", "page": "p"}}}},
     "params.contentRefs.spec: must be a file or OpenAPI reference"),
    ({"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "openapi", "spec": "no-such-spec"}}}},
     "params.contentRefs.spec: no OpenAPI specification 'no-such-spec' in this organization"),
    ({"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "file", "file": "unknown"}}}},
     "params.contentRefs.spec: no matching file"),
    ({"id": "openapi", "params": {"contentRefs": {"spec": {"kind": "file", "file": "notes"}}}},
     "params.contentRefs.spec: the file is not an OpenAPI document"),
])
def test_bad_bodies_are_400s_naming_the_field_and_change_nothing(api, admin_space, body, message):
    ada, space_id = admin_space
    files = [{"id": "notes", "name": "notes.txt", "contentType": "text/plain"}]
    publish(space_id, tree(files=files), files={"notes": b"just: [some, yaml]\n"})
    revision = api.get(f"/spaces/{space_id}", token=ada.token).json()["revision"]
    reply = apply(api, ada, space_id, body)
    assert error(reply, 400).startswith(message), reply.body
    assert api.get(f"/spaces/{space_id}", token=ada.token).json()["revision"] == revision


def test_readers_and_commenters_are_403_editors_may(api, admin_space):
    ada, space_id = admin_space
    for name, role in (("Rex", "read"), ("Cat", "comment")):
        who = join(api, ada.org_id, name, role)
        assert error(apply(api, who, space_id, {"id": "blank"}), 403).startswith("You need the edit role")
    assert pages_of(api, ada, space_id) == []
    editor = join(api, ada.org_id, "Eve", "edit")
    assert apply(api, editor, space_id, {"id": "blank"}).status == 201


def test_other_organizations_and_unknown_spaces_are_404(api, admin_space):
    _, space_id = admin_space
    outsider = api.org_admin("Olga", "Other")
    assert error(apply(api, outsider, space_id, {"id": "blank"}), 404) == "No matching space"
    assert error(apply(api, outsider, "nope", {"id": "blank"}), 404) == "No matching space"


def test_a_locked_space_is_403(api, admin_space):
    ada, space_id = admin_space
    locked = api.patch(f"/spaces/{space_id}", token=ada.token, body={"editMode": "locked"})
    assert locked.status == 200, locked.body
    assert "locked" in error(apply(api, ada, space_id, {"id": "blank"}), 403)
    assert pages_of(api, ada, space_id) == []
