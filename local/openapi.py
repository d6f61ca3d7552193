"""Bindery's own OpenAPI document, generated from the code: docs/openapi.json.

Every function of template.yaml that has API events is imported (its CodeUri and layers/shared on
sys.path, as on Lambda), its Powertools resolver renders its routes, and Powertools' `OpenAPIMerge`
merges them into one document. Nothing here touches AWS: the bindery package creates its boto3 handles
lazily, and the generator refuses to finish if an import created one anyway.

    python -m local.openapi --write   # (make openapi) rewrite docs/openapi.json
    python -m local.openapi --check   # (make check-openapi) exit 1 if docs/openapi.json is stale, or if
                                      # a success response's shape is not declared (see untyped_responses)
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from local.openapi_conventions import (
    HTTP_METHODS,
    apply_bindery_conventions,
    operations,
    untyped_responses,
)
from local.template import ROOT, V1_API, Function, Template, load

DOCUMENT = ROOT / "docs" / "openapi.json"
SHARED_LAYER = ROOT / "layers" / "shared"
TITLE = "Bindery API"
SERVER_URL = "/v1"
SECURITY_SCHEME = "bearerAuth"
DESCRIPTION = (
    "The Documentation Platform API, compatible with the GitBook API. Every operation needs an API "
    "token: `Authorization: Bearer <token>`. Generated from the code by `make openapi`; do not edit."
)

# What the handler modules may read at import time. Dummies: generating the document must not depend on,
# or reach, any deployment.
_DUMMY_ENV = {
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_REGION": "us-east-1",
    "BINDERY_TABLE": "bindery-openapi",
    "BINDERY_BUCKET": "bindery-openapi-blobs",
    "BINDERY_CURSOR_SECRET": "openapi-generator-dummy-secret-0123456789",
    "POWERTOOLS_SERVICE_NAME": "bindery-openapi",
    "POWERTOOLS_LOG_LEVEL": "ERROR",
}


def api_functions(template: Template | None = None) -> list[Function]:
    """The functions API Gateway routes to, in template order."""
    template = template or load()
    return [function for function in template.functions.values()
            if any(route.api == V1_API for route in function.routes)]


def _version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def _on_path(entry: Path) -> None:
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))


def resolver(function: Function) -> Any:
    """The Powertools resolver (`app`) of an API function, imported as on Lambda."""
    _on_path(function.code_uri)
    module_name = function.handler.rpartition(".")[0]
    module = importlib.import_module(module_name)
    app = getattr(module, "app", None)
    if app is None or not hasattr(app, "get_openapi_schema"):
        raise RuntimeError(f"{function.name}: {module_name} has no Powertools resolver named `app`")
    from bindery.api.http import Resolver  # importable once the handler module is (layers/shared)

    if isinstance(app, Resolver):
        app.include_deferred()  # every route, those imported on first need too
    return app


def _aws_handles() -> set[str]:
    from bindery.platform import aws

    return aws.made()


def prepare_imports() -> None:
    """What importing the handlers needs: layers/shared on sys.path and dummy settings."""
    for name, value in _DUMMY_ENV.items():
        os.environ.setdefault(name, value)
    _on_path(SHARED_LAYER)


def without_credentials() -> None:
    """For a command run from a shell: no real credentials are needed or wanted, so an accidental AWS
    call fails instead of reaching whatever account the shell happens to be logged in to."""
    os.environ.update({"AWS_ACCESS_KEY_ID": "openapi", "AWS_SECRET_ACCESS_KEY": "openapi",
                       "AWS_EC2_METADATA_DISABLED": "true"})
    os.environ.pop("AWS_SESSION_TOKEN", None)
    os.environ.pop("AWS_PROFILE", None)


def function_schemas(template: Template | None = None) -> dict[str, dict[str, Any]]:
    """Each API function's own OpenAPI document (JSON-ready), keyed by the function's logical id."""
    prepare_imports()
    before = _aws_handles()
    schemas: dict[str, dict[str, Any]] = {}
    for function in api_functions(template):
        schema = resolver(function).get_openapi_schema()
        schemas[function.name] = schema.model_dump(mode="json", by_alias=True, exclude_none=True)
    created = _aws_handles() - before
    if created:
        raise RuntimeError(f"importing the handlers created AWS handles ({', '.join(sorted(created))}); "
                           "keep boto3 clients lazy (bindery.platform.aws)")
    return schemas


def _check_conflicts(schemas: dict[str, dict[str, Any]]) -> None:
    """Two functions must not declare the same operation, nor different components under one name
    (OpenAPIMerge would keep one of them silently)."""
    owners: dict[tuple[str, str], str] = {}
    components: dict[tuple[str, str], tuple[str, Any]] = {}
    problems: list[str] = []
    for function, schema in schemas.items():
        for path, item in (schema.get("paths") or {}).items():
            for method in item:
                if method not in HTTP_METHODS:
                    continue
                owner = owners.setdefault((path, method), function)
                if owner != function:
                    problems.append(f"{method.upper()} {path} is defined by {owner} and {function}")
        for kind, entries in (schema.get("components") or {}).items():
            for name, definition in entries.items():
                owner, seen = components.setdefault((kind, name), (function, definition))
                if seen != definition:
                    problems.append(f"components.{kind}.{name} differs between {owner} and {function}")
    if problems:
        raise RuntimeError("cannot merge the functions' OpenAPI documents:\n  " + "\n  ".join(problems))


def generate(template: Template | None = None) -> dict[str, Any]:
    """The merged document, as plain JSON data."""
    from aws_lambda_powertools.event_handler.openapi.merge import OpenAPIMerge
    from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer, Server

    schemas = function_schemas(template)
    _check_conflicts(schemas)
    merge = OpenAPIMerge(
        title=TITLE,
        version=_version(),
        description=DESCRIPTION,
        servers=[Server(url=SERVER_URL, description="API Gateway stage v1")],
        security_schemes={SECURITY_SCHEME: HTTPBearer(
            description="An API token, sent as `Authorization: Bearer <token>`.")},
        security=[{SECURITY_SCHEME: []}],
        on_conflict="error",
    )
    for function in sorted(schemas):
        merge.add_schema(schemas[function])
    # Powertools renders the merge through its OpenAPI model: that validates the result and turns the
    # models in it (security scheme, server) into JSON.
    document: dict[str, Any] = json.loads(merge.get_openapi_json_schema())
    apply_bindery_conventions(document)
    return _validated(document)


def _validated(document: dict[str, Any]) -> dict[str, Any]:
    from aws_lambda_powertools.event_handler.openapi.models import OpenAPI

    model = OpenAPI.model_validate(document)
    result: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return result


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def summarize_diff(committed: str, generated: str, limit: int = 40) -> list[str]:
    """What differs between the committed and the generated document, briefly."""
    lines: list[str] = []
    try:
        old = json.loads(committed)
    except json.JSONDecodeError:
        old = None
    if isinstance(old, dict):
        new = json.loads(generated)
        before, after = operations(old), operations(new)
        lines += [f"  + {op}" for op in sorted(after.keys() - before.keys())]
        lines += [f"  - {op}" for op in sorted(before.keys() - after.keys())]
        lines += [f"  ~ {op}" for op in sorted(after.keys() & before.keys()) if after[op] != before[op]]
        for key in sorted(set(old) | set(new)):
            if key != "paths" and old.get(key) != new.get(key):
                lines.append(f"  ~ {key}")
    diff = list(difflib.unified_diff(committed.splitlines(), generated.splitlines(),
                                     "docs/openapi.json (committed)", "docs/openapi.json (generated)",
                                     lineterm="", n=1))
    if diff and isinstance(old, dict):
        shown = diff[:limit]
        lines.append(f"  {len(diff)} diff lines{' (first ' + str(limit) + ')' if len(diff) > limit else ''}:")
        lines += ["    " + line for line in shown]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.openapi", description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"write {DOCUMENT.relative_to(ROOT)}")
    mode.add_argument("--check", action="store_true", help="fail if the committed document is stale")
    args = parser.parse_args(argv)
    without_credentials()
    generated = render(generate())
    relative = DOCUMENT.relative_to(ROOT)
    if args.write:
        if DOCUMENT.exists() and DOCUMENT.read_text(encoding="utf-8") == generated:
            print(f"{relative} is up to date")
        else:
            DOCUMENT.parent.mkdir(parents=True, exist_ok=True)
            DOCUMENT.write_text(generated, encoding="utf-8")
            print(f"wrote {relative} ({len(operations(json.loads(generated)))} operations)")
        return 0
    untyped = untyped_responses(json.loads(generated))
    if untyped:
        print(f"{len(untyped)} success responses have no declared shape (a route returns a plain dict "
              "instead of a response model of bindery.api.responses):", file=sys.stderr)
        for line in untyped:
            print(f"  {line}", file=sys.stderr)
        return 1
    committed = DOCUMENT.read_text(encoding="utf-8") if DOCUMENT.exists() else ""
    if committed == generated:
        print(f"{relative} is up to date")
        return 0
    print(f"{relative} is stale{'' if committed else ' (missing)'}: run `make openapi` and commit it",
          file=sys.stderr)
    for line in summarize_diff(committed, generated):
        print(line, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
