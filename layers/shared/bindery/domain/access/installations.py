"""What an installation token's caller may reach on spaces: the role the scopes naming the route give
(bindery.domain.access.installation_scopes.SPACE_ROLES) on the spaces its installation covers — every live
space of
the installation's organization when `space_selection` is `all`, otherwise the spaces it is installed on.
Anything else does not exist for it (404). The installation is read on every check, so an uninstalled
installation's tokens reach nothing at once.

In its own organization, organization-level scopes give the role of `ORG_ROLES` on the routes they name
(`installation_org_role`, used by `org_access`); a site is reachable only when `site_selection` is `all`
or the integration is installed on it (`installation_covers_site`). Capabilities that are not routes of
their own (`conversations:ingest`) are checked with `require_installation_scope`.
"""

from __future__ import annotations

from bindery.domain.access.auth import Caller
from bindery.domain.access.installation_scopes import ORG_ROLES, SPACE_ROLES
from bindery.domain.access.role_order import strongest
from bindery.platform.errors import NotFound
from bindery.store import integration_installations as install_store
from bindery.store.content_nodes import Node
from bindery.store.members import Member
from bindery.store.spaces import Space


def installation_role(caller: Caller, node: Node) -> str | None:
    grant = caller.installation
    if grant is None or not isinstance(node, Space) or node.deleted_at is not None:
        return None
    installation = install_store.get_installation(grant.integration, grant.installation_id)
    if installation is None or installation.org_id != node.org_id:
        return None
    if installation.space_selection != "all" and install_store.get_content_installation(
            "space", grant.integration, grant.installation_id, node.id) is None:
        return None
    return strongest(*(SPACE_ROLES.get(scope) for scope in grant.route_scopes))


def installation_org_role(caller: Caller, org_id: str) -> str | None:
    """The role the scopes naming the route give the token in `org_id` (None: none, or not the
    installation's organization, or uninstalled)."""
    grant = caller.installation
    if grant is None:
        return None
    role = strongest(*(ORG_ROLES.get(scope) for scope in grant.route_scopes))
    if role is None:
        return None
    installation = install_store.get_installation(grant.integration, grant.installation_id)
    return role if installation is not None and installation.org_id == org_id else None


def installation_covers_site(caller: Caller, site_id: str) -> bool:
    """Is the site within the token's installation's `site_selection` (all, or installed on it)? The
    site's organization is the installation's (`org_access` checked it)."""
    grant = caller.installation
    if grant is None:
        return True
    installation = install_store.get_installation(grant.integration, grant.installation_id)
    if installation is None:
        return False
    return installation.site_selection == "all" or install_store.get_content_installation(
        "site", grant.integration, grant.installation_id, site_id) is not None


def require_installation_scope(caller: Caller, org_id: str, scope: str) -> None:
    """For a route that an installation token's scope allows as a capability (`conversations:ingest`):
    404 unless the token has `scope` and its installation is installed on `org_id` (nothing else of
    another organization exists for it). A user's caller passes: the route checks its membership."""
    grant = caller.installation
    if grant is None:
        return
    installation = install_store.get_installation(grant.integration, grant.installation_id)
    if scope not in grant.scopes or installation is None or installation.org_id != org_id:
        raise NotFound("No matching organization")


def installation_member(caller: Caller, org_id: str, role: str | None = None) -> Member:
    """The installation as the member an access names: a guest of the organization (no organization
    role) unless an organization-level scope gives one, never anyone's membership."""
    return Member(org_id=org_id, user_id=caller.user_id, role=role, joined_at="", display_name="Integration")
