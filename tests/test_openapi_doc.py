"""docs/openapi.json is generated from the code (`make openapi`) and covers every route of template.yaml."""

from __future__ import annotations

import json

import pytest

from local import openapi, openapi_conventions
from local.gateway import match
from local.openapi_conventions import HTTP_METHODS
from local.template import Route, load


@pytest.fixture(scope="module")
def generated() -> dict:
    return openapi.generate()


def _operations(document: dict, path: str) -> set[str]:
    return {method for method in document["paths"].get(path, {}) if method in HTTP_METHODS}


def _covers(document: dict, route: Route) -> bool:
    if route.path.endswith("+}"):
        prefix = route.path[: route.path.rindex("{")]
        paths = [path for path in document["paths"] if path.startswith(prefix)]
    else:
        paths = [route.path] if route.path in document["paths"] else []
    methods = {method for path in paths for method in _operations(document, path)}
    return bool(methods) if route.method == "ANY" else route.method.lower() in methods


def test_committed_document_is_up_to_date(generated):
    committed = openapi.DOCUMENT.read_text(encoding="utf-8")
    summary = "\n".join(openapi.summarize_diff(committed, openapi.render(generated)))
    assert committed == openapi.render(generated), f"docs/openapi.json is stale, run make openapi:\n{summary}"


def test_every_template_route_has_an_operation(generated):
    missing = [f"{route.method} {route.path} ({route.function})" for route in load().routes
               if not _covers(generated, route)]
    assert not missing, "routes in template.yaml without an operation in the code:\n" + "\n".join(missing)


def test_every_operation_is_routed_by_api_gateway_to_its_function():
    # A route registered in code but not declared in template.yaml events is unreachable once deployed.
    routes = load().routes
    unrouted = []
    for function, schema in openapi.function_schemas().items():
        for path, item in schema.get("paths", {}).items():
            concrete = "/".join("x" if part.startswith("{") else part for part in path.split("/"))
            for method in item:
                found = match(routes, method.upper(), concrete)
                if found is None or found[0].function != function:
                    routed_to = found[0].function if found else "nothing"
                    unrouted.append(f"{method.upper()} {path} of {function} is routed to {routed_to}")
    assert not unrouted, "\n".join(unrouted)


def test_document_shape(generated):
    assert generated["info"]["title"] == "Bindery API"
    assert generated["servers"] == [{"url": "/v1", "description": "API Gateway stage v1"}]
    assert generated["security"] == [{"bearerAuth": []}]
    assert generated["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    # Rendering is canonical: sorted keys, so regenerating never reorders the committed file.
    assert openapi.render(json.loads(openapi.render(generated))) == openapi.render(generated)


def test_operations_declare_their_path_parameters_and_bindery_errors(generated):
    for path, item in generated["paths"].items():
        names = {part[1:-1] for part in path.split("/") if part.startswith("{")}
        for method, operation in item.items():
            declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert declared == names, f"{method.upper()} {path}"
            assert "422" not in operation["responses"], f"{method.upper()} {path}: Bindery answers 400"


def _document(schema: dict | None, status: str = "200") -> dict:
    response: dict = {"description": "OK"}
    if schema is not None:
        response["content"] = {"application/json": {"schema": schema}}
    return {"paths": {"/things": {"get": {"responses": {status: response, "default": {"description": "x"}}}}}}


@pytest.mark.parametrize("schema", [
    {"type": "object", "additionalProperties": True, "title": "Return"},
    {"type": "object"},
    {},
])
def test_a_success_response_without_a_declared_shape_is_reported(schema):
    assert openapi_conventions.untyped_responses(_document(schema)) == ["GET /things 200"]


@pytest.mark.parametrize("schema", [
    {"$ref": "#/components/schemas/Thing"},
    {"type": "object", "properties": {"id": {"type": "string"}}},
    {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}},
    {"anyOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}]},
    {"type": "string"},
])
def test_a_declared_response_shape_passes(schema):
    assert openapi_conventions.untyped_responses(_document(schema)) == []


def test_no_content_and_error_answers_are_not_success_shapes():
    assert openapi_conventions.untyped_responses(_document(None, "204")) == []
    assert openapi_conventions.untyped_responses(_document(None, "201")) == []  # declared without a body
    assert openapi_conventions.untyped_responses(_document({"type": "object"}, "404")) == []


def test_no_content_answers_declare_no_body(generated):
    # Found by schemathesis: a DELETE's 204 was declared with a JSON body, so a client that trusts the
    # document (and schemathesis' content-type check) expected one; 205 (the reference's "deleted") neither.
    with_body = [f"{method.upper()} {path} {status}" for path, item in generated["paths"].items()
                 for method, operation in item.items()
                 for status, response in operation["responses"].items()
                 if status in ("204", "205") and "content" in response]
    assert not with_body
    saml_delete = generated["paths"]["/orgs/{organizationId}/saml/{samlProviderId}"]["delete"]
    assert saml_delete["responses"].keys() >= {"204", "205"}


def test_answers_that_are_not_json_are_declared_as_what_they_are(generated):
    # Found by schemathesis: these were declared as JSON strings.
    paths = generated["paths"]
    assert "content" not in paths["/spaces/{spaceId}/content/template"]["post"]["responses"]["201"]
    assert "content" not in paths["/saml/{samlProviderId}/start"]["get"]["responses"]["302"]
    assert "content" not in paths["/saml/{samlProviderId}/acs"]["post"]["responses"]["303"]
    assert paths["/saml/{samlProviderId}/metadata"]["get"]["responses"]["200"]["content"] == {
        "application/samlmetadata+xml": {"schema": {"type": "string"}}}


def test_every_success_response_declares_its_shape(generated):
    untyped = openapi_conventions.untyped_responses(generated)
    assert not untyped, "routes returning a plain dict instead of a response model:\n" + "\n".join(untyped)
