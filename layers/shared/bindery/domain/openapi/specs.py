"""Creating, replacing, changing and deleting OpenAPI specifications (ORG/openapi, docs/openapi.md).

Every member with at least the read role sees the organization's specs; creating, replacing, changing
and deleting them takes the create role (the organization's `createOpenAPISpec` permission). A source is
processed in the background: each create or PUT gives the spec a new `job` and queues one message for it.

Reads: the organization and the caller's membership (one BatchGetItem, `org_access`), then the spec
(one GetItem). A list page is one Query; its count is the organization's `openapiSpecCount`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess, require_org_role
from bindery.domain.access.roles import Role, at_least
from bindery.platform import clock, queues
from bindery.platform.config import settings
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.messages import OpenAPIProcessMessage
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.platform.url_policy import check_url
from bindery.requests.openapi import SpecSource
from bindery.store import Transaction, TransactionConflict
from bindery.store import openapi_specs as spec_store
from bindery.store.openapi_specs import Spec

NO_SPEC = "No matching OpenAPI specification"
VIEW: Role = "read"
EDIT: Role = "create"


@dataclass(frozen=True)
class SpecView:
    spec: Spec
    can_edit: bool

    @property
    def published_url(self) -> str | None:
        """A public spec's latest version, served to anyone with the link (`urls.published`)."""
        spec = self.spec
        if spec.visibility != "public" or not spec.last_version or not spec.last_root:
            return None
        return spec_store.root_url(spec_store.version_prefix(spec.id, spec.last_version), spec.last_root)


def _view(access: OrgAccess, spec: Spec) -> SpecView:
    return SpecView(spec, at_least(access.role, EDIT))


def get_spec(caller: Caller, org_id: str, slug: str) -> SpecView:
    access = require_org_role(caller, org_id, VIEW, "read OpenAPI specifications")
    spec = spec_store.get_spec(org_id, slug)
    if spec is None:
        raise NotFound(NO_SPEC)
    return _view(access, spec)


def list_specs(caller: Caller, org_id: str, *, limit: int, page: str | None) -> Listing[SpecView]:
    access = require_org_role(caller, org_id, VIEW, "read OpenAPI specifications")
    scope = f"openapi-specs:{org_id}"
    found = spec_store.specs_page(org_id, limit, open_page(scope, page).start)
    items = [_view(access, Spec.from_item(item)) for item in found.items]
    return Listing(items, next_page(scope, found.last_key), access.org.openapi_spec_count)


def _source_fields(spec_id: str, source: SpecSource) -> tuple[str | None, str | None]:
    """(sourceURL, sourceDigest): a URL is checked against the URL policy now (a 400 naming it); a
    text's bytes go to the object store under their digest."""
    if source.text is not None:
        data = source.text.encode()
        if len(data) > settings().openapi_max_bytes:
            raise BadRequest(f"source.text: larger than {settings().openapi_max_bytes} bytes")
        digest = hashlib.sha256(data).hexdigest()
        spec_store.put_source_text(spec_id, digest, data)
        return None, digest
    # The worker resolves the host and checks every address right before it fetches (DNS changes).
    return check_url(source.url or "", "source.url", files_allowed=False, resolve=False), None


def _queue(spec: Spec) -> None:
    message = OpenAPIProcessMessage(organizationId=spec.org_id, slug=spec.slug, specId=spec.id, job=spec.job)
    queues.send(settings().required_queue_url("openapi_queue_url"), message)


def create_spec(caller: Caller, org_id: str, slug: str, source: SpecSource) -> SpecView:
    access = require_org_role(caller, org_id, EDIT, "create OpenAPI specifications")
    return _create(access, caller, slug, source)


def _create(access: OrgAccess, caller: Caller, slug: str, source: SpecSource) -> SpecView:
    org_id = access.org.id
    now = clock.now_iso()
    spec = Spec(id=new_id(), org_id=org_id, slug=slug, created_at=now, updated_at=now,
                created_by=caller.user_id, job=new_id())
    spec.source_url, spec.source_digest = _source_fields(spec.id, source)
    try:
        Transaction(spec_store.create_ops(spec)).commit()
    except TransactionConflict as conflict:
        if conflict.failed("spec"):
            raise BadRequest(f"slug: an OpenAPI specification named {slug!r} already exists") from None
        raise NotFound("No matching organization") from None
    try:
        _queue(spec)
    except Exception:
        # Nothing would ever process it: take the spec back rather than leave it pending for good.
        Transaction(spec_store.delete_ops(spec)).commit()
        raise
    return _view(access, spec)


def put_spec(caller: Caller, org_id: str, slug: str, source: SpecSource) -> tuple[SpecView, bool]:
    """Replace the source of the spec (processed again), or create it; (the spec, created?)."""
    access = require_org_role(caller, org_id, EDIT, "update OpenAPI specifications")
    spec = spec_store.get_spec(org_id, slug)
    if spec is None:
        return _create(access, caller, slug, source), True
    seen_job = spec.job
    spec.source_url, spec.source_digest = _source_fields(spec.id, source)
    spec.job, spec.updated_at = new_id(), clock.now_iso()
    spec.processing_state, spec.claimed_at = "pending", None
    try:
        Transaction(spec_store.new_source_op(spec, seen_job)).commit()
    except TransactionConflict:
        raise Conflict("The specification was replaced or deleted while this request ran; send it again") \
            from None
    _queue(spec)
    return _view(access, spec), False


def set_visibility(caller: Caller, org_id: str, slug: str, visibility: str) -> SpecView:
    access = require_org_role(caller, org_id, EDIT, "update OpenAPI specifications")
    spec = spec_store.get_spec(org_id, slug)
    if spec is None:
        raise NotFound(NO_SPEC)
    spec.visibility, spec.updated_at = visibility, clock.now_iso()
    try:
        Transaction(spec_store.visibility_op(spec)).commit()
    except TransactionConflict:
        raise NotFound(NO_SPEC) from None
    return _view(access, spec)


def delete_spec(caller: Caller, org_id: str, slug: str) -> None:
    """The spec, its versions and its stored files; nothing (204 all the same) when it is missing."""
    require_org_role(caller, org_id, EDIT, "delete OpenAPI specifications")
    spec = spec_store.get_spec(org_id, slug)
    if spec is None:
        return
    try:
        Transaction(spec_store.delete_ops(spec)).commit()
    except TransactionConflict:
        return  # deleted (or replaced) by another request meanwhile
    # Nothing reaches these once the spec item is gone; a failure here leaves only unreachable data.
    spec_store.delete_versions(spec.id)
    spec_store.delete_objects(spec.id)
