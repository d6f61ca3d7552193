"""Reading integrations as a caller may see them, and the view every integration response is made from.

Names are global and visible (publishing a taken name is refused whoever asks), so an integration's
*existence* is no secret; its record is. A `public` or `unlisted` integration is readable by any
signed-in user, a `private` one only by members of its owner organization (404 for everyone else).
Changing one (publish, unpublish, development mode) takes an admin of its owner organization.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import OrgAccess, org_access, require_sso_login
from bindery.platform.errors import Forbidden, NotFound
from bindery.store import integrations as integration_store
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.integrations import Integration
from bindery.store.members import Member
from bindery.store.orgs import Organization, get_org_and_member

NO_INTEGRATION = "No matching integration"
NAME = re.compile(r"[a-zA-Z0-9\-_.]{1,100}")


@dataclass(frozen=True)
class IntegrationView:
    """An integration with its owner, the caller's admin flag there, and the URLs of its assets."""

    integration: Integration
    owner: Organization
    owner_role: str | None  # the caller's role in the owner organization (None: not a member)
    icon_url: str | None
    preview_urls: list[str]

    @property
    def admin(self) -> bool:
        return self.owner_role == "admin"


def view(integration: Integration, owner: Organization, member: Member | None) -> IntegrationView:
    name = integration.name
    icon = integration.icon
    icon_url = (integration_store.asset_url(name, icon["digest"], icon["contentType"], f"{name}-icon")
                if icon else None)
    previews = [integration_store.asset_url(name, image["digest"], image["contentType"],
                                            f"{name}-preview-{index + 1}")
                for index, image in enumerate(integration.preview_images)]
    role = member.role if member is not None and not member.disabled else None
    return IntegrationView(integration, owner, role, icon_url, previews)


def load(name: str) -> Integration:
    """The stored integration (404 when the name is impossible or unused)."""
    integration = integration_store.get_integration(name) if NAME.fullmatch(name) else None
    if integration is None:
        raise NotFound(NO_INTEGRATION)
    return integration


def readable(caller: Caller, integration: Integration) -> IntegrationView:
    """The integration as the caller may read it: 404 for a private one outside its owner organization."""
    owner, member = get_org_and_member(integration.owner_id, caller.user_id)
    if owner is None:
        raise NotFound(NO_INTEGRATION)
    member = acting_member(owner, member, caller)
    if integration.visibility == "private" and member is None:
        raise NotFound(NO_INTEGRATION)
    return view(integration, owner, member)


def readable_views(caller: Caller, integrations: list[Integration]) -> list[IntegrationView]:
    """`readable` for many integrations at once, in their order: their owners and the caller's memberships
    there in one BatchGetItem, whatever their number; the private ones the caller may not read (and any
    whose owner is gone) are left out."""
    owner_ids = sorted({i.owner_id for i in integrations})
    found = items_by_key([*(org_store.org_key(o) for o in owner_ids),
                          *(member_store.member_key(o, caller.user_id) for o in owner_ids)])
    owners = {o: Organization.from_item(found[ref(org_store.org_key(o))]) for o in owner_ids
              if ref(org_store.org_key(o)) in found}
    members = {o: acting_member(owners[o], Member.from_item(item), caller) for o in owners
               if (item := found.get(ref(member_store.member_key(o, caller.user_id)))) is not None}
    return [view(i, owners[i.owner_id], members.get(i.owner_id)) for i in integrations
            if i.owner_id in owners and (i.visibility != "private" or members.get(i.owner_id) is not None)]


def acting_member(org: Organization, member: Member | None, caller: Caller) -> Member | None:
    """The caller's membership as it may act now: none when disabled, or when the organization enforces
    single sign-on and this token did not come from its login (docs/sso.md) — such a caller reads the
    owner's integrations as an outsider does; so does a token another organization's SSO login issued."""
    if member is None or member.disabled or caller.sso_org not in (None, org.id):
        return None
    try:
        require_sso_login(org, member, caller)
    except Forbidden:
        return None
    return member


def read(caller: Caller, name: str) -> IntegrationView:
    return readable(caller, load(name))


def owner_admin(caller: Caller, integration: Integration, action: str) -> OrgAccess:
    """The caller as an admin of the integration's owner organization (403 otherwise; 404 for a private
    integration the caller cannot read)."""
    try:
        access = org_access(integration.owner_id, caller)
    except NotFound:
        if integration.visibility == "private":
            raise NotFound(NO_INTEGRATION) from None
        raise Forbidden(f"Only admins of the organization that owns the integration may {action}") from None
    if not access.is_admin:
        raise Forbidden(f"Only admins of the organization that owns the integration may {action}")
    return access
