"""Organization-scoped access: who may see and change what. Non-members get 404, never data."""

from __future__ import annotations

from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.roles import Role, at_least
from bindery.platform.errors import Forbidden, NotFound
from bindery.store.members import Member
from bindery.store.orgs import Organization, get_org_and_member

NO_ORG = "No matching organization"


@dataclass(frozen=True)
class OrgAccess:
    org: Organization
    member: Member

    @property
    def role(self) -> str | None:
        return self.member.role

    @property
    def is_admin(self) -> bool:
        return at_least(self.member.role, "admin")

    def require(self, role: Role, action: str) -> None:
        if not at_least(self.member.role, role):
            raise Forbidden(f"You need the {role} role in this organization to {action}")


def org_access(org_id: str, caller: Caller) -> OrgAccess:
    """The organization and the caller's membership, in one request; 404 unless the caller is a member.
    An installation token is the member its organization-level scopes make it
    (bindery.domain.access.installation_scopes
    ORG_ROLES) in its installation's organization, and not a member anywhere else; a token an SSO login
    issued is not a member anywhere but in that login's organization (`require_token_org`)."""
    require_token_org(caller, org_id)
    if caller.installation is not None:
        # The installations' store serves installation tokens only: imported on first need (and before a
        # SnapStart snapshot: bindery.api.http).
        from bindery.domain.access.installations import installation_member, installation_org_role

        role = installation_org_role(caller, org_id)
        found = get_org_and_member(org_id, caller.user_id)[0] if role else None
        if found is None or role is None:
            raise NotFound(NO_ORG)
        return OrgAccess(org=found, member=installation_member(caller, org_id, role))
    org, member = get_org_and_member(org_id, caller.user_id)
    if org is None or member is None or member.disabled:
        raise NotFound(NO_ORG)
    require_sso_login(org, member, caller)
    return OrgAccess(org=org, member=member)


def require_org_role(caller: Caller, org_id: str, role: Role, action: str) -> OrgAccess:
    """`org_access`, then 403 unless the caller's role in the organization is at least `role`."""
    access = org_access(org_id, caller)
    access.require(role, action)
    return access


def require_token_org(caller: Caller, org_id: str, missing: str = NO_ORG) -> None:
    """A token an SSO login issued acts only in the organization whose provider issued it (docs/sso.md):
    that organization's identity provider vouches for nothing elsewhere, so everything of another
    organization does not exist for it (404, `missing`), as for a non-member. Checked before any read."""
    if caller.sso_org is not None and caller.sso_org != org_id:
        raise NotFound(missing)


def require_sso_login(org: Organization, member: Member, caller: Caller) -> None:
    """An organization that enforces SSO (`sso`) lets its SSO members act in it only with a token its
    own SAML login issued (docs/sso.md): a token made otherwise is refused with 403."""
    if org.sso and member.sso and caller.sso_org != org.id:
        raise Forbidden("This organization requires single sign-on: log in through one of its SAML "
                        f"providers (GET /orgs/{org.id}/sso) and use the API token that login issues")
