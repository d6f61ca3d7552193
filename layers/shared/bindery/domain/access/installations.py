"""What an installation token's caller may reach on spaces: the role the scopes naming the route give
(bindery.installation_scopes.SPACE_ROLES) on the spaces its installation covers — every live space of
the installation's organization when `space_selection` is `all`, otherwise the spaces it is installed on.
Anything else does not exist for it (404). The installation is read on every check, so an uninstalled
installation's tokens reach nothing at once.
"""

from __future__ import annotations

from bindery.auth import Caller
from bindery.installation_scopes import SPACE_ROLES
from bindery.role_order import strongest
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


def installation_member(caller: Caller, org_id: str) -> Member:
    """The installation as the member a content access names: a guest of the organization (no
    organization role), never anyone's membership."""
    return Member(org_id=org_id, user_id=caller.user_id, role=None, joined_at="", display_name="Integration")
