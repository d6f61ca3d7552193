"""Transferring a space or a collection, with everything inside it, to another organization
(transferSpace, transferCollection).

The caller must be an admin of both organizations. The item lands at the top level of the target
organization, after its last space or collection; what is inside a collection keeps its place inside it.
Grants follow only where they still mean something: a user's grant is kept if the user is a member of the
target organization and dropped otherwise, and team grants are always dropped (teams belong to an
organization). The members' and teams' `spaces` counters move with the space grants, and the two
organizations' `spaceCount` and `collectionCount` with the nodes.

Everything (the items, their grant items, the counters) changes in ONE transaction, so a transfer is
never half done; a transaction holds at most 100 items, so a bigger transfer is refused (412, the spec's
"cannot be moved"). Deleted spaces are not part of a transfer: they stay where they were deleted.

The spaces' change requests follow afterwards (store.change_requests.move_to_org: one conditional
UpdateItem each, as many as there are, outside the 100-item limit). Until they have, the organization
listings read the space's organization and show a change request only where its space now is; if the
follow-up is cut short (the function dies in between), the next read or write of any of the space's
change requests finishes it (domain.change_requests.records.open_change_request).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import ContentAccess, collection_access, space_access
from bindery.domain.access.organization import org_access
from bindery.domain.access.roles import at_least
from bindery.domain.collections import CollectionView
from bindery.domain.integrations.content_installs import content_gone
from bindery.domain.spaces.records import SpaceView
from bindery.engines.content.positions import between
from bindery.platform.errors import BinderyError, Conflict, Forbidden
from bindery.requests.tree import TransferContent
from bindery.store import Item, Op, Transaction
from bindery.store import change_requests as cr_store
from bindery.store import grants as grant_store
from bindery.store import members as member_store
from bindery.store import teams as team_store
from bindery.store import tree as tree_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.collections import Collection
from bindery.store.content_nodes import org_counts_op
from bindery.store.spaces import Space
from bindery.store.tree import MAX_TREE_WRITES, TransferredNode


class CannotBeMoved(BinderyError):
    """The spec's 412 for a transfer: "The space (collection) cannot be moved"."""

    status = 412


def transfer_space(caller: Caller, space_id: str, body: TransferContent) -> SpaceView:
    access = space_access(caller, space_id)
    moved = _transfer(caller, access, body.organization)
    assert isinstance(moved, Space)
    return SpaceView(moved, "admin")


def transfer_collection(caller: Caller, collection_id: str, body: TransferContent) -> CollectionView:
    access = collection_access(caller, collection_id)
    moved = _transfer(caller, access, body.organization)
    assert isinstance(moved, Collection)
    return CollectionView(moved, "admin")


def _transfer(caller: Caller, access: ContentAccess, target_org: str) -> Space | Collection:
    """Returns the transferred item as it now is. The caller, an admin of both organizations, is admin
    of it in the target."""
    node = access.node
    if not at_least(access.member.role, "admin"):
        raise Forbidden(f"You need to be an admin of the organization that owns this {node.kind} to "
                        "transfer it")
    if target_org == node.org_id:
        raise Conflict(f"Operation would not change anything: the {node.kind} is already in that "
                       "organization")
    target = org_access(target_org, caller)
    if not target.is_admin:
        raise Forbidden("You need to be an admin of the target organization to transfer content into it")
    assert isinstance(node, Space | Collection)
    root = node.to_item()
    items, paths = [root], {node.id: list[str]()}
    if isinstance(node, Collection):
        tree = tree_store.subtree(node.org_id, node.id, MAX_TREE_WRITES)
        if tree.truncated:
            raise _too_big(node.kind)
        items += tree.items
        paths.update(tree.paths)
    found = _principals_found(items, node.org_id, target_org)
    last = tree_store.last_child(target_org, None)
    position = between(last["position"] if last else None, None)
    now = grant_store.next_updated_at(max(item["updatedAt"] for item in items))
    ops = _ops(items, paths, (node.org_id, target_org), found, position=position, now=now)
    if len(ops) > MAX_TREE_WRITES:
        raise _too_big(node.kind)
    Transaction(ops).commit()
    spaces = [item["id"] for item in items if item["type"] == "space"]
    for space_id in spaces:
        cr_store.move_to_org(space_id, node.org_id, target_org)
    # The source organization's integrations lose the spaces (their installations are that
    # organization's): one Query per space, usually empty.
    content_gone("space", spaces)
    moved = replace(node, org_id=target_org, parent=None, ancestors=[], position=position, updated_at=now,
                    grants=_kept_grants(node.grants, target_org, found))
    if isinstance(moved, Space) and moved.visibility == "in-collection":
        moved.visibility = "private"
    return moved


def _too_big(kind: str) -> CannotBeMoved:
    return CannotBeMoved(
        f"The {kind} cannot be moved: a transfer changes it, everything inside it, their permission grants "
        f"and the counters those move in one transaction of at most {MAX_TREE_WRITES} items, and this one "
        f"needs more. Move some of its content out, or remove grants, first.")


def _principals(items: list[Item], principal: str) -> set[str]:
    prefix = f"{principal}:"
    return {entry[len(prefix):] for item in items for entry in item.get("grants") or {}
            if entry.startswith(prefix)}


def _principals_found(items: list[Item], source_org: str, target_org: str) -> dict[tuple[str, str], Item]:
    """One read for the members (in both organizations) and the teams the subtree's grants name: who
    keeps a grant, and whose counter can move."""
    users, teams = sorted(_principals(items, "user")), sorted(_principals(items, "team"))
    members = [member_store.member_key(org, user_id) for org in (source_org, target_org) for user_id in users]
    return items_by_key([*members, *(team_store.team_key(source_org, team_id) for team_id in teams)])


def _kept_grants(grants: dict[str, str], target_org: str, found: dict[tuple[str, str], Item]
                 ) -> dict[str, str]:
    """User grants of users who are members of the target organization; team grants never follow."""
    return {entry: role for entry, role in grants.items() if entry.startswith("user:")
            and ref(member_store.member_key(target_org, entry.split(":", 1)[1])) in found}


def _ops(items: list[Item], paths: dict[str, list[str]], orgs: tuple[str, str],
         found: dict[tuple[str, str], Item], *, position: str, now: str) -> list[Op]:
    source_org, target_org = orgs
    root_id = items[0]["id"]
    ops: list[Op] = []
    spaces_delta: Counter[tuple[str, str, str]] = Counter()  # (org, "user"|"team", id) -> change
    for item in items:
        is_root = item["id"] == root_id
        moved = TransferredNode(
            item=item, org_id=target_org, parent=None if is_root else item.get("parent"),
            # The path stops at the transferred item, which is at the top level now.
            ancestors=paths[item["id"]], position=position if is_root else item["position"],
            grants=_kept_grants(item.get("grants") or {}, target_org, found),
            visibility="private" if is_root and item.get("visibility") == "in-collection" else None,
        )
        ops.append(tree_store.transfer_op(moved, now))
        for entry in item.get("grants") or {}:
            principal, principal_id = entry.split(":", 1)
            if entry in moved.grants:
                ops.append(tree_store.kept_grant_op(item["type"], item["id"], principal_id, target_org))
            else:
                ops.append(tree_store.dropped_grant_op(item["type"], item["id"], principal, principal_id))
            if item["type"] == "space":
                spaces_delta[(source_org, principal, principal_id)] -= 1
                if entry in moved.grants:
                    spaces_delta[(target_org, principal, principal_id)] += 1
    ops.extend(_counter_ops(spaces_delta, found))
    # Every item moved is live (the subtree holds only listed nodes): each organization's counts move,
    # in one update per organization item.
    kinds = Counter(str(item["type"]) for item in items)
    ops += [org_counts_op(source_org, {kind: -n for kind, n in kinds.items()}),
            org_counts_op(target_org, dict(kinds))]
    return ops


def _counter_ops(deltas: Counter[tuple[str, str, str]],
                 found: dict[tuple[str, str], Item]) -> list[Op]:
    """The `spaces` counters of the members and teams whose space grants moved or went; a member or team
    that no longer exists has no counter to move."""
    ops = []
    for (org, principal, pid), delta in sorted(deltas.items()):
        key = member_store.member_key(org, pid) if principal == "user" else team_store.team_key(org, pid)
        if delta and ref(key) in found:
            counter = grant_store.member_spaces_op if principal == "user" else grant_store.team_spaces_op
            ops.append(counter(org, pid, delta))
    return ops
