"""The effective role of a caller on a space or collection (docs/permissions.md).

effective role = the strongest of
  * the *inherited level*: for an organization admin, `admin`; for a guest (null organization role),
    nothing; otherwise the first `defaultLevel` that is not `inherit`, walking from the node up through
    its collections, or — when every level inherits — the caller's organization role. An explicit level
    limits or widens the organization role (`null` makes the content private to those granted);
  * every direct grant to the caller on the node or on any collection above it;
  * every grant to a team the caller belongs to, on the node or on any collection above it.
No role (or no membership in the owning organization) means the content does not exist for the caller.

Reads: the node (GetItem), then one BatchGetItem for the caller's membership and every collection
above the node; and one Query for the caller's teams only when a team grant is in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bindery import keys
from bindery.auth import Caller
from bindery.domain.roles import Role, at_least, strongest
from bindery.errors import Forbidden, NotFound
from bindery.store import table
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.collections import Collection
from bindery.store.content_nodes import Node
from bindery.store.members import Member
from bindery.store.spaces import Space
from bindery.store.teams import all_links_of_member

NO_SPACE = "No matching space"
NO_COLLECTION = "No matching collection"


def effective_role(member: Member | None, chain: Sequence[Node], team_ids: set[str]) -> str | None:
    """`chain` is the node itself followed by its collections, nearest first."""
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


def teams_in_play(chain: Sequence[Node]) -> bool:
    return any(node.team_ids_granted for node in chain)


@dataclass(frozen=True)
class ContentAccess:
    """A caller's view of one space or collection."""

    node: Node
    member: Member
    collections: list[Collection]  # the node's ancestors, nearest first
    role: str | None

    def require(self, role: Role, action: str) -> None:
        if not at_least(self.role, role):
            raise Forbidden(f"You need the {role} role here to {action}")


def _resolve(node: Node, caller: Caller, missing: str) -> ContentAccess:
    member_key = keys.member(node.org_id, caller.user_id)
    found = items_by_key([member_key, *(keys.collection(cid) for cid in node.ancestors)])
    member_item = found.get(ref(member_key))
    if member_item is None:
        raise NotFound(missing)
    member = Member.from_item(member_item)
    collections = [Collection.from_item(found[ref(keys.collection(cid))])
                   for cid in node.ancestors if ref(keys.collection(cid)) in found]
    chain: list[Node] = [node, *collections]
    teams = member_team_ids(node.org_id, caller.user_id) if teams_in_play(chain) else set()
    role = effective_role(member, chain, teams)
    if role is None:
        raise NotFound(missing)
    return ContentAccess(node=node, member=member, collections=collections, role=role)


def member_team_ids(org_id: str, user_id: str) -> set[str]:
    return {link.team_id for link in all_links_of_member(org_id, user_id)}


def space_access(caller: Caller, space_id: str, *, deleted: bool = False) -> ContentAccess:
    """The caller's access to a live space (or, with `deleted`, to one awaiting removal); 404 otherwise."""
    item = table.get(keys.space(space_id))
    space = Space.from_item(item) if item else None
    if space is None or (space.deleted_at is not None) != deleted:
        raise NotFound(NO_SPACE)
    return _resolve(space, caller, NO_SPACE)


def collection_access(caller: Caller, collection_id: str) -> ContentAccess:
    item = table.get(keys.collection(collection_id))
    if item is None:
        raise NotFound(NO_COLLECTION)
    return _resolve(Collection.from_item(item), caller, NO_COLLECTION)
