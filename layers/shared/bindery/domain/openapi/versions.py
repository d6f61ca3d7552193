"""The versions of a specification (ORG/openapi/{slug}/versions…): each successful processing of a
changed source made one (bindery.domain.openapi.processing). Newest first.

Reads: the access check (one BatchGetItem) and the spec (one GetItem); then one Query for a page, one
GetItem for a version, and one object read for its content. The count is the spec's `versionCount`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import require_org_role
from bindery.domain.openapi.specs import VIEW
from bindery.platform.errors import NotFound
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.store import openapi_specs as spec_store
from bindery.store.openapi_specs import Spec, Version

NO_VERSION = "No matching OpenAPI specification version"
LATEST = "latest"


@dataclass(frozen=True)
class VersionView:
    spec: Spec
    version: Version
    url: str  # where the root document is served


@dataclass(frozen=True)
class VersionContent:
    view: VersionView
    filesystem: dict[str, Any]


def _spec(caller: Caller, org_id: str, slug: str, missing: str) -> Spec:
    require_org_role(caller, org_id, VIEW, "read OpenAPI specifications")
    spec = spec_store.get_spec(org_id, slug)
    if spec is None:
        raise NotFound(missing)
    return spec


def _view(spec: Spec, version: Version) -> VersionView:
    return VersionView(spec, version, spec_store.root_url(version.objects, version.root))


def list_versions(caller: Caller, org_id: str, slug: str, *,
                  limit: int, page: str | None) -> Listing[VersionView]:
    spec = _spec(caller, org_id, slug, "No matching OpenAPI specification")
    scope = f"openapi-versions:{spec.id}"
    found = spec_store.versions_page(spec.id, limit, open_page(scope, page).start)
    return Listing([_view(spec, Version.from_item(item)) for item in found.items],
                   next_page(scope, found.last_key), spec.version_count)


def get_version(caller: Caller, org_id: str, slug: str, version_id: str) -> VersionView:
    """A version by id, or the newest (`latest`)."""
    spec = _spec(caller, org_id, slug, NO_VERSION)
    wanted = spec.last_version if version_id == LATEST else version_id
    version = spec_store.get_version(spec.id, wanted) if wanted else None
    if version is None:
        raise NotFound(NO_VERSION)
    return _view(spec, version)


def get_content(caller: Caller, org_id: str, slug: str, version_id: str) -> VersionContent:
    view = get_version(caller, org_id, slug, version_id)
    files = spec_store.get_version_files(view.version)
    if files is None:
        raise RuntimeError(f"the files of OpenAPI spec version {view.version.id} are missing")
    return VersionContent(view, files)
