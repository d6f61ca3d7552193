"""Reading one file of a specification: JSON, or YAML (a superset of JSON), into a mapping."""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from typing import Any

from bindery.engines.openapi.errors import ProcessingFailed, SpecError


def parse(data: bytes, name: str) -> Any:
    """The parsed file; PARSE_ERROR naming `name` when it is neither JSON nor YAML."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ProcessingFailed("PARSE_ERROR", [SpecError(f"{name}: not UTF-8 text",
                                                         "INVALID_ENCODING")]) from None
    try:
        return json.loads(text)  # most specs are JSON: the C parser reads a megabyte in milliseconds
    except ValueError:
        pass
    except RecursionError:
        raise ProcessingFailed("PARSE_ERROR", [SpecError(f"{name}: nested too deeply",
                                                         "INVALID_SYNTAX")]) from None
    import yaml  # only YAML files pay for it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it
    try:
        return _as_json(yaml.load(text, Loader=loader))  # noqa: S506 - a safe loader
    except yaml.YAMLError as error:
        raise ProcessingFailed("PARSE_ERROR", [SpecError(f"{name}: not valid JSON or YAML ({error})",
                                                         "INVALID_SYNTAX")]) from None
    except RecursionError:
        raise ProcessingFailed("PARSE_ERROR", [SpecError(f"{name}: nested too deeply",
                                                         "INVALID_SYNTAX")]) from None


def _as_json(value: Any) -> Any:
    """What the same document written as JSON would read as: YAML's integer keys (`200:` response
    codes) become strings, and its dates ISO strings (OpenAPI has no date type; JSON has none either)."""
    if isinstance(value, dict):
        return {str(key).lower() if isinstance(key, bool) else str(key): _as_json(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def require_spec(document: Any, name: str) -> Mapping[str, Any]:
    """The root document, if it says which OpenAPI (or Swagger) version it is."""
    if not isinstance(document, Mapping) or not ("openapi" in document or "swagger" in document):
        raise ProcessingFailed("PARSE_ERROR", [SpecError(
            f"{name}: not an OpenAPI document (an object with an `openapi` or `swagger` version)",
            "NOT_OPENAPI")])
    return document
