"""Writes tests/content/document-schema.json: the `Document*` and `JSONDocument` schemas of GitBook's API
spec, and every schema they reference, so that the tests validate documents without Node or /tmp.

Regenerate after bumping `@gitbook/api` in conformance/package.json:

    (cd conformance && npm ci)
    .venv/bin/python tests/content/make_schema.py [path/to/openapi.json]

The default source is conformance/node_modules/@gitbook/api/spec/openapi.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = ROOT / "conformance/node_modules/@gitbook/api/spec/openapi.json"
TARGET = Path(__file__).with_name("document-schema.json")


def _refs(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["$ref"].rsplit("/", 1)[-1]] if isinstance(value.get("$ref"), str) else []
        return found + [ref for item in value.values() for ref in _refs(item)]
    if isinstance(value, list):
        return [ref for item in value for ref in _refs(item)]
    return []


def subset(spec: dict[str, Any], version: str) -> dict[str, Any]:
    schemas = spec["components"]["schemas"]
    todo = [name for name in schemas if name.startswith("Document") or name == "JSONDocument"]
    kept: dict[str, Any] = {}
    while todo:
        name = todo.pop()
        if name not in kept:
            kept[name] = schemas[name]
            todo.extend(_refs(schemas[name]))
    return {
        "source": f"@gitbook/api@{version} spec/openapi.json, subset written by tests/content/make_schema.py",
        "components": {"schemas": dict(sorted(kept.items()))},
    }


def main(argv: list[str]) -> None:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    spec = json.loads(source.read_text())
    package = source.parent.parent / "package.json"
    version = json.loads(package.read_text())["version"] if package.exists() else "?"
    result = subset(spec, version)
    TARGET.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {TARGET} ({len(result['components']['schemas'])} schemas)")


if __name__ == "__main__":
    main(sys.argv)
