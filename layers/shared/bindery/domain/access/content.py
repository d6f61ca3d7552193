"""The effective role of a caller on a space or collection (docs/permissions.md has the table of cases).

effective role = the strongest of
  * the *inherited level*: for an organization admin, `admin`; for a guest (null organization role),
    nothing; otherwise the first `defaultLevel` that is not `inherit`, walking from the node up through
    its collections, or — when every level inherits — the caller's organization role. An explicit level
    limits or widens the organization role (`null` makes the content private to those granted);
  * every direct grant to the caller on the node or on any collection above it;
  * every grant to a team the caller belongs to, on the node or on any collection above it.
A disabled member, or someone who is not a member of the owning organization, has no role. No role means
the content does not exist for the caller (404).

Reads: the node (GetItem), then one BatchGetItem for the caller's membership, every collection above the
node and the caller's memberships of the teams the node itself grants something to; a second
BatchGetItem only when a collection above grants something to a team the first one did not cover.
Team memberships are read by key (strongly consistent), never from an index that may lag.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import NO_ORG, require_sso_login, require_token_org
from bindery.domain.access.roles import Role, at_least, strongest
from bindery.platform.errors import Forbidden, NotFound
from bindery.store import Item, Key
from bindery.store import collections as collection_store
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import spaces as space_store
from bindery.store import teams as team_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.collections import Collection
from bindery.store.content_nodes import Node
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.teams import all_links_of_member

NO_SPACE = "No matching space"
NO_COLLECTION = "No matching collection"


def effective_role(member: Member | None, chain: Sequence[Node], team_ids: set[str]) -> str | None:
    """`chain` is the node itself followed by its collections, nearest first; `team_ids` holds (at
    least) the caller's teams among those the chain grants something to."""
    if member is None or member.disabled:
        return None
    if member.role == "admin":
        return "admin"
    inherited: str | None = None
    if member.role is not None:
        inherited = member.role
        for node in chain:
            if node.default_level != "inherit":
                inherited = node.default_level
                break
    grants = [node.grant_for("user", member.user_id) for node in chain]
    grants += [node.grant_for("team", team) for node in chain for team in team_ids]
    return strongest(inherited, *grants)


@dataclass(frozen=True)
class ContentAccess:
    """A caller's view of one space or collection."""

    node: Node
    member: Member
    collections: list[Collection]  # the node's ancestors, nearest first
    role: str | None
    # The node's organization as the check read it (same BatchGetItem, consistent): None when the check
    # did not read it (an installation's token) or it is gone. Callers needing it read it only then.
    org: Organization | None = None

    def require(self, role: Role, action: str) -> None:
        if not at_least(self.role, role):
            raise Forbidden(f"You need the {role} role here to {action}")


def _link_keys(org_id: str, user_id: str, team_ids: Iterable[str]) -> list[Key]:
    return [team_store.link_key(org_id, team_id, user_id) for team_id in sorted(team_ids)]


def _teams_found(org_id: str, user_id: str, team_ids: Iterable[str],
                 found: dict[tuple[str, str], Item]) -> set[str]:
    return {team_id for team_id in team_ids if ref(team_store.link_key(org_id, team_id, user_id)) in found}


def _roles(member: Member, chains: dict[str, list[Node]], found: dict[tuple[str, str], Item],
           read: set[str]) -> dict[str, str | None]:
    """The member's role on the head of each chain (a node followed by its collections, nearest first).
    `found` holds what was read of the member's memberships of the teams in `read`; the other teams the
    chains grant something to are read now, in one BatchGetItem (none for an admin, whom no team changes)."""
    org_id, user_id = member.org_id, member.user_id
    granted = {team for chain in chains.values() for node in chain for team in node.team_ids_granted}
    teams = _teams_found(org_id, user_id, granted & read, found)
    further = granted - read
    if further and member.role != "admin" and not member.disabled:
        teams |= _teams_found(org_id, user_id, further, items_by_key(_link_keys(org_id, user_id, further)))
    return {node_id: effective_role(member, chain, teams) for node_id, chain in chains.items()}


@dataclass(frozen=True)
class _Resolved:
    member: Member | None  # None: not a member of the organization
    above: dict[str, list[Collection]]  # by node id: the collections above it that exist, nearest first
    roles: dict[str, str | None]
    org: Organization | None = None  # read only when asked for (`with_org`)


def _resolve_many(org_id: str, user_id: str, nodes: Sequence[Node],
                  member: Member | None = None, *, with_org: bool = False) -> _Resolved:
    """The one implementation behind every role check on spaces and collections, one node or a page:
    ONE BatchGetItem for the membership (unless `member` is given), every collection above any of `nodes`
    that is not itself among them, and the member's memberships of the teams `nodes` grant something to;
    a second only for teams granted solely by those collections. Team memberships are read by key."""
    known: dict[str, Collection] = {node.id: node for node in nodes if isinstance(node, Collection)}
    missing = list(dict.fromkeys(cid for node in nodes for cid in node.ancestors if cid not in known))
    own_teams = {team for node in nodes for team in node.team_ids_granted}
    member_key = member_store.member_key(org_id, user_id)
    org_key = org_store.org_key(org_id)
    found = items_by_key([*([] if member else [member_key]), *([org_key] if with_org else []),
                          *(collection_store.collection_key(cid) for cid in missing),
                          *_link_keys(org_id, user_id, own_teams)])
    org_item = found.get(ref(org_key))
    org = Organization.from_item(org_item) if org_item else None
    if member is None:
        member_item = found.get(ref(member_key))
        if member_item is None:
            return _Resolved(member=None, above={}, roles={})
        member = Member.from_item(member_item)
    for cid in missing:
        if (item := found.get(ref(collection_store.collection_key(cid)))) is not None:
            known[cid] = Collection.from_item(item)
    above = {node.id: [known[cid] for cid in node.ancestors if cid in known] for node in nodes}
    chains: dict[str, list[Node]] = {node.id: [node, *above[node.id]] for node in nodes}
    return _Resolved(member=member, above=above, roles=_roles(member, chains, found, own_teams), org=org)


def _resolve(node: Node, caller: Caller, missing: str) -> ContentAccess:
    require_token_org(caller, node.org_id, missing)
    if caller.installation is not None:
        # Imported on first need, as in `org_access`.
        from bindery.domain.access.installations import installation_member, installation_role

        role = installation_role(caller, node)
        if role is None:
            raise NotFound(missing)
        return ContentAccess(node=node, member=installation_member(caller, node.org_id), collections=[],
                             role=role)
    # The organization comes in the same BatchGetItem: an organization that enforces SSO refuses its SSO
    # members' other tokens on its spaces and collections too (docs/sso.md).
    resolved = _resolve_many(node.org_id, caller.user_id, [node], with_org=True)
    role = resolved.roles.get(node.id)
    if resolved.member is None or role is None:
        raise NotFound(missing)
    if resolved.org is not None:
        require_sso_login(resolved.org, resolved.member, caller)
    return ContentAccess(node=node, member=resolved.member, collections=resolved.above[node.id], role=role,
                         org=resolved.org)


def roles_on(member: Member, nodes: Sequence[Node]) -> dict[str, str | None]:
    """The member's effective role on each of `nodes` (of the member's organization), by node id (see
    `_resolve_many` for the reads; none for an admin or a disabled member)."""
    if member.disabled or member.role == "admin" or not nodes:
        return {node.id: effective_role(member, [node], set()) for node in nodes}
    return _resolve_many(member.org_id, member.user_id, nodes, member).roles


def member_roles(org_id: str, caller: Caller, nodes: Sequence[Node]) -> tuple[Member, dict[str, str | None]]:
    """The caller's membership and their role on each of `nodes` (a page of spaces or collections), from
    the same reads as `roles_on` with the membership in the first one. Not an active member: 404."""
    member, roles, _ = member_roles_and_org(org_id, caller, nodes)
    return member, roles


def member_roles_and_org(org_id: str, caller: Caller, nodes: Sequence[Node]
                         ) -> tuple[Member, dict[str, str | None], Organization]:
    """`member_roles`, with the organization (its counters) read in the same first BatchGetItem; the
    organization's SSO rules apply as in `org_access`."""
    require_token_org(caller, org_id)
    resolved = _resolve_many(org_id, caller.user_id, nodes, with_org=True)
    if resolved.member is None or resolved.member.disabled or resolved.org is None:
        raise NotFound(NO_ORG)
    require_sso_login(resolved.org, resolved.member, caller)
    return resolved.member, resolved.roles, resolved.org


def roles_in_chains(member: Member, chains: dict[str, list[Node]]) -> dict[str, str | None]:
    """The member's role on the head of each chain (a node followed by its collections, nearest first,
    all already read); the member's teams are read (one BatchGetItem) only when some chain grants a team
    something."""
    return _roles(member, chains, {}, set())


def member_team_ids(org_id: str, user_id: str) -> set[str]:
    """Every team of the member (GSI1, for listings that need roles on many nodes at once)."""
    return {link.team_id for link in all_links_of_member(org_id, user_id)}


def space_access(caller: Caller, space_id: str, *, deleted: bool = False) -> ContentAccess:
    """The caller's access to a live space (or, with `deleted`, to one awaiting removal); 404 otherwise."""
    space = space_store.get_space(space_id)
    if space is None or (space.deleted_at is not None) != deleted:
        raise NotFound(NO_SPACE)
    return _resolve(space, caller, NO_SPACE)


def collection_access(caller: Caller, collection_id: str) -> ContentAccess:
    collection = collection_store.get_collection(collection_id)
    if collection is None:
        raise NotFound(NO_COLLECTION)
    return _resolve(collection, caller, NO_COLLECTION)
