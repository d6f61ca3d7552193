"""What Bindery's OpenAPI document says that Powertools cannot know from the route functions
(`apply_bindery_conventions`), and the check that every success answer declares its shape
(`untyped_responses`). Used by local.openapi, which generates the document."""

from __future__ import annotations

from typing import Any

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "description": "The body of every error answer (bindery.platform.errors.error_body).",
    "type": "object",
    "required": ["error"],
    "properties": {"error": {
        "type": "object",
        "required": ["code", "message"],
        "properties": {"code": {"type": "integer", "description": "The HTTP status."},
                       "message": {"type": "string"}},
    }},
}
_ERROR_REF = {"$ref": "#/components/schemas/Error"}
# Statuses whose answers have no body: 204 No Content, 205 Reset Content (the reference's "deleted").
_BODYLESS = {"204", "205"}
# How Powertools renders a route's `Response[str]` return type.
_PLAIN_STR = {"title": "Return", "type": "string"}


def _error_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": dict(_ERROR_REF)}}}


def apply_bindery_conventions(document: dict[str, Any]) -> None:
    """What Powertools cannot know from the route functions, made true in the document:

    - path parameters that route functions read through a dependency (`bindery.api.dependencies.organization`
      reads `organizationId` from API Gateway's pathParameters) are still path parameters;
    - request validation errors answer 400 with Bindery's error body (`bindery.api.http.create_app`), not
      Powertools' 422 `HTTPValidationError`;
    - any other status (401 from the authorizer, 403, 404, 409…) answers with the same error body;
    - 204 and 205 answers have no body.
    """
    for path, item in (document.get("paths") or {}).items():
        names = [part[1:-1] for part in path.split("/") if part.startswith("{") and part.endswith("}")]
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            parameters = operation.setdefault("parameters", [])
            declared = {p.get("name") for p in parameters if p.get("in") == "path"}
            missing = [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                       for name in names if name not in declared]
            operation["parameters"] = missing + parameters
            if not operation["parameters"]:
                del operation["parameters"]
            responses = operation.setdefault("responses", {})
            for status, response in responses.items():
                # Powertools gives the route's status the route's return type as a JSON body. 204 and 205
                # never carry one (RFC 9110), and a route returning `Response[str]` answers no JSON (an
                # empty body, a redirect, XML it declares itself): a client that believed the document
                # would try to parse it (found by schemathesis).
                content = response.get("content") or {}
                if status in _BODYLESS or content.get("application/json", {}).get("schema") == _PLAIN_STR:
                    content.pop("application/json", None)
                    if not content:
                        response.pop("content", None)
            if "422" in responses:
                del responses["422"]
                responses.setdefault("400", _error_response("Invalid request"))
            responses.setdefault("default", _error_response("Error"))
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = ERROR_SCHEMA
    _prune_unreferenced(document)


def _refs(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[-1])
        for child in value.values():
            found |= _refs(child)
    elif isinstance(value, list):
        for child in value:
            found |= _refs(child)
    return found


def _prune_unreferenced(document: dict[str, Any]) -> None:
    """Drop the schemas nothing refers to any more (Powertools' validation-error models)."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    live: set[str] = set()
    pending = _refs(document.get("paths"))
    while pending:
        name = pending.pop()
        if name in live or name not in schemas:
            continue
        live.add(name)
        pending |= _refs(schemas[name])
    for name in sorted(set(schemas) - live):
        del schemas[name]


def operations(document: dict[str, Any]) -> dict[str, Any]:
    return {f"{method.upper()} {path}": operation
            for path, item in (document.get("paths") or {}).items()
            for method, operation in item.items() if method in HTTP_METHODS}


_COMPOSITION = ("$ref", "properties", "items", "allOf", "anyOf", "oneOf", "enum", "const")


def _untyped(schema: Any) -> bool:
    """A bare object (`{"type": "object"}`, whatever its title or `additionalProperties`) or `{}` says
    nothing of the answer's shape: what a route annotated `-> dict[str, Any]` renders."""
    if not isinstance(schema, dict):
        return True
    if any(key in schema for key in _COMPOSITION):
        return False
    return schema.get("type") in (None, "object")


def untyped_responses(document: dict[str, Any]) -> list[str]:
    """The success answers (2xx other than 204 and 205, which have no body) whose JSON shape is not
    declared: every route returns a response model of bindery.api.responses instead (or a
    `Response[str]` with no JSON body, declared without content)."""
    found: list[str] = []
    for name, operation in operations(document).items():
        for status, response in (operation.get("responses") or {}).items():
            if not status.startswith("2") or status in _BODYLESS:
                continue
            if "content" not in response:
                continue  # declared without a body (a route returning `Response[str]`)
            content = response["content"].get("application/json")
            if content is not None and _untyped(content.get("schema")):
                found.append(f"{name} {status}")
    return found
