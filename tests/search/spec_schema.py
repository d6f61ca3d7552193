"""Validating a response body against the official spec's schema for an operation (as the conformance
suite does with Ajv): OpenAPI 3.0's `nullable` becomes a JSON Schema type union."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema

from tests.data_paths import REFERENCE_SPEC

SPEC = REFERENCE_SPEC


def _nullable(node: Any) -> Any:
    if isinstance(node, list):
        return [_nullable(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _nullable(value) for key, value in node.items()
           if key != "nullable" and not key.startswith("x-")}
    if node.get("nullable") is True:
        if "type" in out:
            out["type"] = [out["type"], "null"] if isinstance(out["type"], str) else [*out["type"], "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


@cache
def _spec() -> dict[str, Any]:
    spec = _nullable(json.loads(SPEC.read_text()))
    # The spec's rough edge (docs/content-model.md): `Document`'s "Empty" variant forbids every property,
    # so read strictly no document page could be named without its body. A page without `document` or
    # `markdown` is what it means.
    spec["components"]["schemas"]["Document"]["oneOf"][2] = {
        "type": "object", "not": {"anyOf": [{"required": ["document"]}, {"required": ["markdown"]}]}}
    return spec


def check(operation_id: str, body: Any, status: str = "200") -> None:
    spec = _spec()
    for methods in spec["paths"].values():
        for operation in methods.values():
            if isinstance(operation, dict) and operation.get("operationId") == operation_id:
                schema = operation["responses"][status]["content"]["application/json"]["schema"]
                wrapped = {**schema, "components": spec["components"]}
                jsonschema.validate(body, wrapped, format_checker=jsonschema.FormatChecker())
                return
    raise LookupError(operation_id)
