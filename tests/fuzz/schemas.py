"""The two schemas the fuzzer runs, and the schemathesis configuration that points them at the seeded
world.

- the official wire contract (`tests/reference/gitbook-openapi-0.146.0-seed-ops.json`) restricted to the
  operations Bindery serves (those `docs/openapi.json` routes);
- Bindery's own typed `docs/openapi.json`, every operation.

Checks are disabled per operation only, each with its reason in EXCLUDED (and in docs/testing.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.fuzz.world import Seeded

ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = ROOT / "tests" / "reference" / "gitbook-openapi-0.146.0-seed-ops.json"
OURS = ROOT / "docs" / "openapi.json"
HTTP_METHODS = ("get", "put", "post", "patch", "delete")
CHECKS = ("not_a_server_error", "response_schema_conformance", "content_type_conformance")

# (schema, method, path template, check) → why that check does not hold there. Nothing else is excluded.
EXCLUDED: dict[tuple[str, str, str, str], str] = {}

# Operations of the official spec that only the fuzzing phase tests: their request bodies embed the
# recursive Document schema (comment bodies, agent instructions, a change request's or a translation's
# settings), from which schemathesis 4.32.5 derives examples and coverage cases combinatorially: minutes
# of CPU per operation, more than the whole run may take (measured: 100 s to over 6 minutes each). The
# same routes get every phase through docs/openapi.json, whose typed bodies are not recursive.
_DOCUMENT_BODIES = "the recursive Document schema in the body: examples and coverage take minutes"
FUZZING_ONLY: dict[tuple[str, str, str], str] = {
    ("official", method, path): _DOCUMENT_BODIES for method, path in (
        ("patch", "/spaces/{spaceId}/change-requests/{changeRequestId}"),
        ("post", "/spaces/{spaceId}/change-requests/{changeRequestId}/comments"),
        ("put", "/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}"),
        ("post", "/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies"),
        ("put",
         "/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}"),
        ("post", "/spaces/{spaceId}/comments"),
        ("put", "/spaces/{spaceId}/comments/{commentId}"),
        ("post", "/spaces/{spaceId}/comments/{commentId}/replies"),
        ("put", "/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}"),
        ("put", "/orgs/{organizationId}/agent-instructions"),
        ("post", "/orgs/{organizationId}/translations"),
        ("put", "/orgs/{organizationId}/translations/{translationId}"),
    )
}


def _segments_match(official: str, ours: str) -> bool:
    a, b = official.strip("/").split("/"), ours.strip("/").split("/")
    return len(a) == len(b) and all(x == y or y.startswith("{") for x, y in zip(a, b, strict=True))


def official_restricted() -> dict[str, Any]:
    """The official spec with only the operations some route of docs/openapi.json serves."""
    official = json.loads(OFFICIAL.read_text())
    ours = json.loads(OURS.read_text())["paths"]
    served = {(method, path) for path, item in ours.items() for method in item if method in HTTP_METHODS}
    paths: dict[str, Any] = {}
    for path, item in official["paths"].items():
        kept = {key: value for key, value in item.items()
                if key not in HTTP_METHODS or any(m == key and _segments_match(path, p) for m, p in served)}
        if any(key in HTTP_METHODS for key in kept):
            paths[path] = kept
    official["paths"] = paths
    _mend(official)
    return official


def _mend(official: dict[str, Any]) -> None:
    """The spec's two defects the conformance suite mends too (conformance/lib/schema.mjs), mended the
    same way so that Bindery's answers are judged by what the spec means:

    - `Document` (in every page of a revision through `allOf`) is a oneOf of {markdown}, {document} and
      an "Empty" alternative `{properties: {}, additionalProperties: false}`; under `allOf` that sees none
      of the page's other properties, so a page without a body (what GitBook serves in page listings)
      matches no alternative. The mended "Empty" says what it means: neither `markdown` nor `document`.
    - `discriminator`s without a `mapping` name their alternatives by schema name (`RevisionTypeEdits`)
      under OpenAPI's implicit mapping, while the values are the `type` enums (`edits`): they are dropped,
      as the conformance suite treats them as annotations; the `oneOf`s they sit on still validate.
    """
    document = official["components"]["schemas"]["Document"]
    empty = next(i for i, alternative in enumerate(document["oneOf"]) if alternative.get("title") == "Empty")
    if document["oneOf"][empty].get("additionalProperties") is not False:
        raise RuntimeError("the spec's Document changed: revisit _mend")
    document["oneOf"][empty] = {"title": "Empty",
                                "not": {"anyOf": [{"required": ["markdown"]}, {"required": ["document"]}]}}

    def drop_discriminators(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("discriminator", None)
            for child in node.values():
                drop_discriminators(child)
        elif isinstance(node, list):
            for child in node:
                drop_discriminators(child)

    drop_discriminators(official)


def operation_count(schema: dict[str, Any]) -> int:
    return sum(1 for item in schema["paths"].values() for key in item if key in HTTP_METHODS)


def _toml(value: Any) -> str:
    """A TOML value: strings in JSON's escapes (valid TOML basic strings), inline tables for dicts."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


def config(schema_name: str, schema: dict[str, Any], world: Seeded, *, seed: int, max_examples: int) -> str:
    """schemathesis.toml for one run: the admin's token, the world's ids as path parameters (contextual
    and per-operation victims where they differ), and the per-operation check exclusions."""
    lines = [
        f"seed = {seed}",
        "[headers]",
        f"Authorization = {_toml('Bearer ' + world.token)}",
        "[generation]",
        f"max-examples = {max_examples}",
        # Fixed seed, no example database: the same run every time.
        'database = "none"',
        "[parameters]",
        *(f"{_toml('path.' + name)} = {_toml(value)}" for name, value in sorted(world.params.items())),
    ]
    for path, item in sorted(schema["paths"].items()):
        for method in HTTP_METHODS:
            if method not in item:
                continue
            names = set(re.findall(r"{(\w+)}", path))
            values: dict[str, str] = {}
            for fragment, contextual in world.contextual:
                if fragment in path:
                    values.update({k: v for k, v in contextual.items() if k in names})
            values.update(world.victims.get((method.upper(), path), {}))
            excluded = [check for (name, m, p, check) in EXCLUDED
                        if (name, m, p) == (schema_name, method, path)]
            fuzzing_only = (schema_name, method, path) in FUZZING_ONLY
            if not values and not excluded and not fuzzing_only:
                continue
            # One filter, the operation's name: schemathesis ORs separate include filters (path, method).
            lines += ["[[operations]]", f"include-name = {_toml(method.upper() + ' ' + path)}"]
            if values:
                lines.append("parameters = " + _toml({f"path.{k}": v for k, v in sorted(values.items())}))
            lines += [f"checks.{check}.enabled = false" for check in excluded]
            if fuzzing_only:
                lines += ["phases.examples.enabled = false", "phases.coverage.enabled = false"]
    return "\n".join(lines) + "\n"
