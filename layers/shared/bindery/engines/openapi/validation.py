"""Validating a filesystem with openapi-spec-validator (OpenAPI 2.0, 3.0, 3.1 and 3.2).

The validator resolves `$ref`s through handlers; its default ones would fetch any URL and read local
files (`file:///…`). Bindery gives it one handler for every scheme that answers only from the files
already read (bindery.engines.openapi.filesystem): validation never touches the network or the disk.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from bindery.engines.openapi.errors import MAX_ERRORS, ProcessingFailed, SpecError
from bindery.engines.openapi.filesystem import Filesystem

TEXT_BASE = "bindery-spec:///"


class _Files:
    """The resolver handler: a document by its URL (the fragment is the resolver's business)."""

    def __init__(self, documents: dict[str, Any]) -> None:
        self.documents = documents

    def __call__(self, uri: str) -> Any:
        found = self.documents.get(uri.split("#", 1)[0])
        if found is None:
            raise ProcessingFailed("PARSE_ERROR", [SpecError(
                f"the reference {uri} names no file of the spec", "UNRESOLVED_REF")])
        return found


def _where(error: Any) -> str:
    """Where in the root document, as a JSON Pointer (`/paths/~1pets/get`)."""
    parts = getattr(error, "absolute_path", None) or getattr(error, "path", None) or []
    pointer = "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
    return f" (at {pointer})" if pointer else ""


def validate(filesystem: Filesystem) -> None:
    """Nothing when the spec is valid; ProcessingFailed (PARSE_ERROR) listing the first problems when not."""
    from jsonschema_path import SchemaPath
    from openapi_spec_validator.shortcuts import get_validator_cls
    from openapi_spec_validator.validation.exceptions import ValidatorDetectError
    from referencing.exceptions import Unresolvable

    root = filesystem.files[filesystem.root]
    try:
        cls = get_validator_cls(root)
    except ValidatorDetectError:
        version = root.get("openapi", root.get("swagger"))
        raise ProcessingFailed("PARSE_ERROR", [SpecError(
            f"{filesystem.root}: OpenAPI version {version!r} is not one Bindery validates "
            "(2.0, 3.0, 3.1, 3.2)",
            "UNSUPPORTED_VERSION")]) from None
    documents = filesystem.by_url() or {TEXT_BASE + filesystem.root: root}
    base = filesystem.urls.get(filesystem.root, TEXT_BASE + filesystem.root)
    handler = _Files(documents)
    handlers = dict.fromkeys(("<all_urls>", "http", "https", "file", "bindery-spec"), handler)
    path = SchemaPath.from_dict(root, base_uri=base, handlers=handlers)
    try:
        found = list(islice(cls(path).iter_errors(), MAX_ERRORS))
    except ProcessingFailed:
        raise
    except (Unresolvable, LookupError, ValueError, TypeError) as error:
        raise ProcessingFailed("PARSE_ERROR", [SpecError(f"{filesystem.root}: {error}",
                                                         "UNRESOLVED_REF")]) from None
    if found:
        raise ProcessingFailed("PARSE_ERROR", [
            SpecError(f"{getattr(error, 'message', error)}{_where(error)}", "VALIDATION_ERROR")
            for error in found])
