"""JSON Schemas copied from the official GitBook spec (local/spec_schemas.py), for request bodies whose
shape is too large to restate as pydantic models: a site's customization and its overrides, and the
adaptive-content visitor schema. Validation names the offending path (`problem`)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _validator(name: str) -> Any:
    # jsonschema is imported here: only the requests that validate pay for it
    from jsonschema import Draft7Validator

    schema = json.loads(resources.files(__package__).joinpath(f"{name}.json").read_text())
    return Draft7Validator(schema)


@cache
def _properties(name: str) -> frozenset[str]:
    schema = json.loads(resources.files(__package__).joinpath(f"{name}.json").read_text())
    return frozenset(schema.get("properties") or ())


def known_fields(name: str, value: dict[str, Any]) -> dict[str, Any]:
    """`value` without the top-level fields schema `name` does not define: ignored, as every request
    body's unknown fields are (the spec's schemas leave objects open, and an unknown field stored would
    break every later answer that shows the setting: found by schemathesis)."""
    known = _properties(name)
    return {key: item for key, item in value.items() if key in known}


def problem(name: str, value: Any, field: str) -> str | None:
    """The first way `value` breaks schema `name`, as "<field>.<path>: <message>", or None."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator(name).iter_errors(value))
    if error is None:
        return None
    path = ".".join(str(part) for part in [field, *error.absolute_path])
    return f"{path}: {error.message[:300]}"
