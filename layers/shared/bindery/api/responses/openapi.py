"""OpenAPI specifications and their versions, as the reference spec declares them (OpenAPISpec,
OpenAPISpecVersion, OpenAPISpecContent)."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import JSONObject, Timestamp


class SpecPermissions(WireModel):
    view: bool
    edit: bool


class SpecUrls(WireModel):
    location: str
    app: str
    published: Omitted[str] = None


class SpecError(WireModel):
    message: str
    code: Omitted[str] = None


class OpenAPISpec(WireModel):
    object: Literal["openapi-spec"]
    id: str
    createdAt: Timestamp
    updatedAt: Timestamp
    slug: str
    sourceURL: Omitted[str] = None
    processingState: Literal["pending", "progress", "complete"]
    visibility: Omitted[Literal["private", "public"]] = None
    lastVersion: Omitted[str] = None
    lastProcessedAt: Omitted[Timestamp] = None
    lastProcessErrorCode: Omitted[Literal["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"]] = None
    lastProcessedErrors: Omitted[list[SpecError]] = None
    permissions: SpecPermissions
    urls: SpecUrls


class OpenAPISpecList(ListPage):
    items: list[OpenAPISpec]


class VersionUrls(WireModel):
    location: str


class OpenAPISpecVersion(WireModel):
    object: Literal["openapi-spec-version"]
    id: str
    createdAt: Omitted[Timestamp] = None
    url: str
    urls: VersionUrls


class OpenAPISpecVersionList(ListPage):
    items: list[OpenAPISpecVersion]


class OpenAPISpecContent(WireModel):
    filesystem: JSONObject
    url: str
