"""Copies the parts of the official GitBook spec that Bindery validates request bodies against into the
layer, as plain JSON Schema (bindery/domain/sites/schemas/*.json, loaded by bindery.domain.sites.schemas).

    python -m local.spec_schemas --spec conformance/node_modules/@gitbook/api/spec/openapi.json

The spec is OpenAPI 3.0: each copy gathers the component schemas it refers to under `definitions`,
and turns `nullable: true` into a JSON Schema `null` type. Run it again when the pinned client moves.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from local.template import ROOT

OUT = ROOT / "layers" / "shared" / "bindery" / "domain" / "sites" / "schemas"
SITE_SPACE_CUSTOMIZATION = "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization"
# file name -> where its schema is in the spec
WANTED = {
    "site_customization": ("components", "SiteCustomizationSettings"),
    "site_customization_override": ("path", SITE_SPACE_CUSTOMIZATION),
    "site_adaptive_schema": ("components", "SiteAdaptiveJSONSchema"),
}


def _converted(node: Any, used: set[str]) -> Any:
    if isinstance(node, list):
        return [_converted(item, used) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _converted(value, used) for key, value in node.items() if key not in {"nullable", "example"}}
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        used.add(name)
        out["$ref"] = f"#/definitions/{name}"
    if node.get("nullable") is True and isinstance(node.get("type"), str):
        out["type"] = [node["type"], "null"]
    return out


def extract(spec: dict[str, Any], kind: str, where: str) -> dict[str, Any]:
    components = spec["components"]["schemas"]
    root = (components[where] if kind == "components"
            else spec["paths"][where]["patch"]["requestBody"]["content"]["application/json"]["schema"])
    used: set[str] = set()
    schema = _converted(root, used)
    definitions: dict[str, Any] = {}
    while used - definitions.keys():
        for name in sorted(used - definitions.keys()):
            definitions[name] = _converted(components[name], used)
    return {"$schema": "http://json-schema.org/draft-07/schema#", **schema,
            "definitions": dict(sorted(definitions.items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", type=Path, required=True)
    spec = json.loads(parser.parse_args().spec.read_text())
    for name, (kind, where) in WANTED.items():
        (OUT / f"{name}.json").write_text(json.dumps(extract(spec, kind, where), indent=1) + "\n")


if __name__ == "__main__":
    main()
