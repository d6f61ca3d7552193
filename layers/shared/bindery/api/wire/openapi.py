"""OpenAPI specifications and versions on the wire (models in bindery.api.responses.openapi)."""

from __future__ import annotations

from typing import Any

from bindery.api.responses.openapi import OpenAPISpec, OpenAPISpecVersion
from bindery.api.wire.urls import api_url, app_url
from bindery.store.openapi_specs import Spec, Version


def spec_path(spec: Spec) -> str:
    return f"/orgs/{spec.org_id}/openapi/{spec.slug}"


def spec_to_wire(spec: Spec, *, can_edit: bool, published_url: str | None) -> OpenAPISpec:
    urls: dict[str, Any] = {"location": api_url(spec_path(spec)),
                            "app": app_url(f"/o/{spec.org_id}/openapi/{spec.slug}")}
    if published_url:
        urls["published"] = published_url
    body: dict[str, Any] = {
        "object": "openapi-spec", "id": spec.id, "createdAt": spec.created_at, "updatedAt": spec.updated_at,
        "slug": spec.slug, "sourceURL": spec.source_url, "processingState": spec.processing_state,
        "visibility": spec.visibility, "lastVersion": spec.last_version,
        "lastProcessedAt": spec.last_processed_at, "lastProcessErrorCode": spec.last_error_code,
        "lastProcessedErrors": spec.last_errors or None,
        "permissions": {"view": True, "edit": can_edit}, "urls": urls,
    }
    return OpenAPISpec.model_validate(body)


def version_to_wire(spec: Spec, version: Version, url: str) -> OpenAPISpecVersion:
    return OpenAPISpecVersion.model_validate({
        "object": "openapi-spec-version", "id": version.id, "createdAt": version.created_at, "url": url,
        "urls": {"location": api_url(f"{spec_path(spec)}/versions/{version.id}")}})
