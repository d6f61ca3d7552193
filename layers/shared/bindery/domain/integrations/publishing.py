"""Publishing, listing, unpublishing integrations and their development mode (docs/integrations.md).

A publish creates the integration (version 1) or replaces it (version n+1) with one conditional PutItem
on the version it read; the icon, preview images and script go to the object store first, under their
SHA-256 (a publish that fails after them leaves only unreferenced objects). Secrets are sealed
(bindery.domain.integrations.sealed_secrets) and never leave the store again through the API, but for
the signing secret the first publish generates, which its owner's admins may read.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import TYPE_CHECKING

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess, org_access
from bindery.domain.integrations.records import (
    NAME,
    IntegrationView,
    acting_member,
    load,
    owner_admin,
    read,
    readable_views,
    view,
)
from bindery.domain.integrations.sealed_secrets import generated_signing_secret, sealed
from bindery.platform import clock
from bindery.platform.errors import BadRequest, Conflict, Forbidden, NotFound
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.platform.url_policy import check_endpoint
from bindery.store import Transaction, TransactionConflict
from bindery.store import integration_events as event_store
from bindery.store import integrations as integration_store
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store.integrations import Integration, IntegrationFilter

if TYPE_CHECKING:  # request bodies, built by the routes: the reads and listings import none
    from bindery.requests.integrations import PublishIntegration

# Images are stored as sent and served with the type their first bytes show.
_IMAGE_TYPES = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"),
                (b"GIF87a", "image/gif"), (b"GIF89a", "image/gif"))
NO_PUBLISHER = "No matching organization for the given id or hostname"


def _image(field: str, encoded: str) -> tuple[bytes, str]:
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest(f"{field}: not valid base64") from None
    for magic, kind in _IMAGE_TYPES:
        if data.startswith(magic):
            return data, kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return data, "image/webp"
    head = data[:1024].lstrip().lower()
    if head.startswith(b"<svg") or (head.startswith(b"<?xml") and b"<svg" in head):
        return data, "image/svg+xml"
    raise BadRequest(f"{field}: not a PNG, JPEG, GIF, WebP or SVG image")


def _stored_image(name: str, field: str, encoded: str) -> dict[str, str]:
    data, kind = _image(field, encoded)
    digest = hashlib.sha256(data).hexdigest()
    integration_store.put_asset(name, digest, data)
    return {"digest": digest, "contentType": kind}


def _publisher(caller: Caller, organization: str) -> OrgAccess:
    """The organization named by id, or by hostname (or its first label, the subdomain) among the
    caller's own organizations: the publisher must be an admin there, so nothing else need be searched."""
    if org_store.get_org(organization) is not None:
        try:
            return org_access(organization, caller)
        except NotFound:
            raise NotFound(NO_PUBLISHER) from None
    wanted = organization.lower()
    start = None
    while True:
        page = member_store.user_memberships_page(caller.user_id, 100, start)
        orgs = org_store.get_orgs([member.org_id for member in page.members])
        for org in orgs.values():
            host = (org.hostname or "").lower()
            if host and wanted in (host, host.split(".", 1)[0]):
                return org_access(org.id, caller)
        if not page.last_key:
            raise NotFound(NO_PUBLISHER)
        start = page.last_key


def _endpoint(body: PublishIntegration, existing: Integration | None) -> str | None:
    """The extension field `endpoint`: checked against SSRF (bindery.platform.url_policy.check_endpoint) when
    sent, removed by null, the previous version's when not sent (a publish from the official CLI)."""
    if "endpoint" not in body.model_fields_set:
        return existing.endpoint if existing else None
    return check_endpoint(body.endpoint, "endpoint") if body.endpoint is not None else None


def _signing_secret(name: str, existing: Integration | None) -> str:
    """The previous version's generated signing secret; a new one for a first publish (and for an
    integration last published before secrets were generated)."""
    if existing is not None and existing.signing_secret:
        return existing.signing_secret
    return generated_signing_secret(name)


def publish(caller: Caller, name: str, body: PublishIntegration) -> IntegrationView:
    if not NAME.fullmatch(name):
        raise BadRequest("integrationName: letters, digits, '-', '_' and '.' only, at most 100")
    access = _publisher(caller, body.organization)
    if not access.is_admin:
        raise Forbidden("Only admins of the organization may publish integrations under it")
    existing = integration_store.get_integration(name)
    if existing is not None and existing.owner_id != access.org.id:
        raise Forbidden(f"The integration {name!r} belongs to another organization")
    now = clock.now_iso()
    script = body.script.encode()
    script_digest = hashlib.sha256(script).hexdigest()
    integration_store.put_script(name, script_digest, script)
    data = body.model_dump(mode="json", exclude_none=True)
    integration = Integration(
        name=name, owner_id=access.org.id, version=(existing.version + 1) if existing else 1,
        title=body.title, created_at=existing.created_at if existing else now, updated_at=now,
        script_digest=script_digest, description=body.description, summary=body.summary,
        target=body.target, visibility=body.visibility, runtime=body.runtime,
        scopes=list(dict.fromkeys(body.scopes)), categories=list(dict.fromkeys(body.categories)),
        blocks=data.get("blocks", []), content_sources=data.get("contentSources", []),
        configurations=data.get("configurations") or {}, external_links=data.get("externalLinks", []),
        content_security_policy=body.contentSecurityPolicy,
        icon=_stored_image(name, "icon", body.icon) if body.icon else None,
        preview_images=[_stored_image(name, f"previewImages.{index}", image)
                        for index, image in enumerate(body.previewImages or [])],
        dev_tunnel=existing.dev_tunnel if existing else None, dev_all=existing.dev_all if existing else False,
        endpoint=_endpoint(body, existing),
        signing_secret=_signing_secret(name, existing))
    if body.secrets is not None:
        integration.secrets = sealed(name, body.secrets)
    elif existing is not None:
        integration.secrets = existing.secrets  # a publish without `secrets` keeps the ones it had
    try:
        seen = existing.version if existing else None
        Transaction(integration_store.publish_op(integration, seen)).commit()
    except TransactionConflict:
        raise Conflict("The integration was published or unpublished meanwhile; publish again") from None
    return view(integration, access.org, access.member)


def get(caller: Caller, name: str) -> IntegrationView:
    return read(caller, name)


def list_integrations(caller: Caller, narrow: IntegrationFilter, *, owner: str | None, listed_for: str | None,
                      limit: int, page: str | None) -> Listing[IntegrationView]:
    """Public integrations, plus the private and unlisted ones of `owner` when the caller is a member
    there, and those of `listed_for` (ORG/integrations: the organization's own)."""
    visible: list[str] = []
    for org_id in {org for org in (owner, listed_for) if org}:
        org, member = org_store.get_org_and_member(org_id, caller.user_id)
        if org is not None and acting_member(org, member, caller) is not None:
            visible.append(org_id)
    narrow = IntegrationFilter(**{**narrow.__dict__, "visible_owners": tuple(sorted(visible))})
    scope = f"integrations:{owner}:{listed_for}:{sorted(narrow.__dict__.items())}"
    start = open_page(scope, page)
    found = integration_store.integrations_page(owner, narrow, limit, start.start)
    count = start.count if start.count is not None else integration_store.integrations_count(owner, narrow)
    # The owners and the caller's memberships there: one BatchGetItem for the whole page.
    items = readable_views(caller, [Integration.from_item(item) for item in found.items])
    return Listing(items, next_page(scope, found.last_key, count), count)


def unpublish(caller: Caller, name: str) -> None:
    """The integration, every installation of it and its objects; nothing (204 all the same) when the
    name is unused."""
    if not NAME.fullmatch(name) or (integration := integration_store.get_integration(name)) is None:
        return
    owner_admin(caller, integration, "unpublish it")
    integration_store.delete_partition(name)
    event_store.delete_events(name)
    integration_store.delete_objects(name)


def set_dev_mode(caller: Caller, name: str, tunnel: str | None, all_orgs: bool) -> None:
    integration = load(name)
    owner_admin(caller, integration, "change its development mode")
    try:
        Transaction(integration_store.dev_mode_op(name, tunnel, all_orgs)).commit()
    except TransactionConflict:
        raise NotFound("No matching integration") from None
