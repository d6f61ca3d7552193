"""Keys of OpenAPI specifications (docs/openapi.md, docs/data-model.md).

A spec is one item of its organization's partition under its slug (the API names specs by slug: one
GetItem), with an alias item under its id (content references and computed pages may name the id).
Its versions live in a partition of their own, keyed by the spec's id (never its slug: a slug deleted
and taken again starts with no versions), newest last (version ids are time-ordered).
"""

from __future__ import annotations

from bindery.keys import Key, org_partition

SPEC_PREFIX = "OPENAPI#"
VERSION_PREFIX = "VERSION#"


def spec(org_id: str, slug: str) -> Key:
    return {"PK": org_partition(org_id), "SK": f"{SPEC_PREFIX}{slug}"}


def spec_alias(org_id: str, spec_id: str) -> Key:
    """`OPENAPIID#` does not begin with `OPENAPI#`: listing the specs never meets an alias."""
    return {"PK": org_partition(org_id), "SK": f"OPENAPIID#{spec_id}"}


def versions_partition(spec_id: str) -> str:
    return f"OPENAPI#{spec_id}"


def version(spec_id: str, version_id: str) -> Key:
    return {"PK": versions_partition(spec_id), "SK": f"{VERSION_PREFIX}{version_id}"}


def objects_prefix(spec_id: str) -> str:
    """Every S3 object of a spec (its text sources and its versions' files) is under this prefix."""
    return f"openapi/{spec_id}/"


def source_object(spec_id: str, digest: str) -> str:
    return f"{objects_prefix(spec_id)}sources/{digest}"


def version_objects(spec_id: str, version_id: str) -> str:
    return f"{objects_prefix(spec_id)}versions/{version_id}/"
