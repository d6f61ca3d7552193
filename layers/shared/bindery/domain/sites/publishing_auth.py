"""A site's publishing auth (the spec's `site-publishing-auth` operations): the private key that signs the
visitor tokens of a `visitor-auth` site, the backend and the fallback URL (docs/published-sites.md).

Organization admins only: the key lets whoever holds it in as any visitor with any claims. A site gets its
key the first time an admin reads the settings (GET creates it), and a new one when they regenerate it
(every token signed with the old key stops working at once).
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from bindery.domain.access.auth import Caller
from bindery.domain.sites.records import commit_change, open_structure
from bindery.platform.clock import now_iso
from bindery.requests.sites import UpdatePublishingAuth
from bindery.store import site_settings as settings_store
from bindery.store.site_settings import PublishingAuth

KEY_BYTES = 32  # HS256 wants a key at least as long as the hash (RFC 7518 3.2)


def _new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def _save(site_id: str, auth: PublishingAuth) -> PublishingAuth:
    saved = replace(auth, updated_at=now_iso())
    commit_change(settings_store.site_check_op(site_id),
                  settings_store.put_publishing_auth_op(site_id, saved))
    return saved


def _admin_structure(caller: Caller, org_id: str, site_id: str) -> PublishingAuth | None:
    access, structure = open_structure(caller, org_id, site_id)
    access.require("admin", "manage the site's publishing auth")
    return structure.publishing_auth


def get_publishing_auth(caller: Caller, org_id: str, site_id: str) -> PublishingAuth:
    current = _admin_structure(caller, org_id, site_id)
    return current if current is not None else _save(site_id, PublishingAuth(private_key=_new_key()))


def update_publishing_auth(caller: Caller, org_id: str, site_id: str,
                           body: UpdatePublishingAuth) -> PublishingAuth:
    current = _admin_structure(caller, org_id, site_id) or PublishingAuth(private_key=_new_key())
    changed = replace(current, backend=body.backend)
    if "fallbackURL" in body.model_fields_set:
        changed = replace(changed, fallback_url=body.fallbackURL)
    return _save(site_id, changed)


def regenerate_publishing_auth(caller: Caller, org_id: str, site_id: str) -> PublishingAuth:
    current = _admin_structure(caller, org_id, site_id) or PublishingAuth(private_key=_new_key())
    return _save(site_id, replace(current, private_key=_new_key()))
