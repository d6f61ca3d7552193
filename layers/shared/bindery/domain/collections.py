"""Collections: creation, listings, reading, settings (PATCH) and deletion.

Permissions (docs/permissions.md): seeing a collection needs any role on it; changing or deleting it needs
`admin` on it; creating one needs `create` in the organization (top level) or in the parent collection
(which folds the organization role in through `defaultLevel` inheritance).

Deleting a collection that still holds live spaces or collections is refused (400): its content is never
deleted or re-parented behind the caller's back. Move or delete the content first. Deleted spaces do not
hold a collection: restoring one whose collection is gone puts it back at the top level. The emptiness
check reads GSI2, which DynamoDB updates a moment after each write: content added in that moment can be
left pointing at a deleted collection (it still reads and moves; it is listed only by the organization's
space listing until moved).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import (
    collection_access,
    effective_role,
    member_roles_and_org,
    roles_in_chains,
    roles_on,
)
from bindery.domain.access.organization import org_access
from bindery.domain.access.roles import at_least
from bindery.domain.spaces.records import SpaceView
from bindery.engines.content.positions import between
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Forbidden
from bindery.platform.ids import new_id
from bindery.platform.pagination import MAX_LIMIT, Listing, carried_count, next_page, open_page
from bindery.requests.collections import CreateCollection, UpdateCollection
from bindery.store import Transaction
from bindery.store import collections as collection_store
from bindery.store import grants as grant_store
from bindery.store import tree as tree_store
from bindery.store.collections import Collection
from bindery.store.content_nodes import Node
from bindery.store.spaces import Space

DEFAULT_TITLE = "Untitled"
NO_PARENT = "parent: no matching collection"
NOT_EMPTY = ("This collection still holds spaces or collections: move or delete them first "
             "(deleting a collection never deletes or moves its content)")
# Grants removed per transaction before a collection with very many grants is deleted (one operation
# is the collection's own grants map).
GRANTS_PER_TRANSACTION = 98


@dataclass(frozen=True)
class CollectionView:
    """A collection as one caller sees it: their effective role on it decides its `permissions` on the
    wire."""

    collection: Collection
    role: str | None


def _collection(access_node: Node) -> Collection:
    assert isinstance(access_node, Collection)
    return access_node


# --- reads --------------------------------------------------------------------------------------
def list_collections(caller: Caller, org_id: str, *,
                     nested: bool, limit: int, page: str | None) -> Listing[CollectionView]:
    """`nested` (the default): every collection of the organization, in creation order; otherwise the
    top-level ones, in sibling order. Collections the caller has no role on are dropped after the page is
    read, so a page may hold fewer than `limit` items and still have a next page. `count`: for an
    organization admin listing them all (nested), the organization's `collectionCount`; otherwise what
    the caller sees, counted by the first page with a pass over the rest (pagination.carried_count)."""
    # The caller is in the scope: a cursor's carried count is theirs alone.
    scope = f"collections:{org_id}:{'nested' if nested else 'top'}:{caller.user_id}"
    start = open_page(scope, page)

    def read(start_key: dict[str, Any] | None, size: int) -> tuple[list[Collection], dict[str, Any] | None]:
        if nested:
            result = collection_store.org_collections_page(org_id, size, start_key)
        else:
            result = tree_store.children_page(org_id, None, size, start_key, kind="collection")
        return [Collection.from_item(item) for item in result.items], result.last_key

    collections, last_key = read(start.start, limit)
    # Membership is checked after the Query so that each read stays one request; nothing read reaches a
    # caller who is not a member (404).
    member, roles, org = member_roles_and_org(org_id, caller, collections)
    items = [CollectionView(c, roles[c.id]) for c in collections if roles[c.id] is not None]
    if nested and member.role == "admin":
        return Listing(items, next_page(scope, last_key), org.collection_count)

    def visible(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        more, more_last = read(start_key, MAX_LIMIT)
        return sum(role is not None for role in roles_on(member, more).values()), more_last

    count = carried_count(start, (len(items), last_key), visible)
    return Listing(items, next_page(scope, last_key, count), count)


def get_collection(caller: Caller, collection_id: str) -> CollectionView:
    access = collection_access(caller, collection_id)
    return CollectionView(_collection(access.node), access.role)


def list_spaces(caller: Caller, collection_id: str, *, limit: int, page: str | None) -> Listing[SpaceView]:
    """The live spaces directly in the collection, in sibling order, that the caller can see. The
    collections above them were read by the access check, so a page costs one Query more; `count` is
    what the caller sees, counted by the first page with a pass over the rest (pagination.carried_count)."""
    access = collection_access(caller, collection_id)
    collection = _collection(access.node)
    # The organization is in the scope: a cursor must not outlive a transfer of the collection; the
    # caller too: the count it carries is theirs alone.
    scope = f"collection-spaces:{collection.org_id}:{collection.id}:{caller.user_id}"
    start = open_page(scope, page)
    above: list[Node] = [collection, *access.collections]

    def read(start_key: dict[str, Any] | None, size: int
             ) -> tuple[list[Space], dict[str, str | None], dict[str, Any] | None]:
        result = tree_store.children_page(collection.org_id, collection.id, size, start_key, kind="space")
        spaces = [Space.from_item(item) for item in result.items]
        return spaces, roles_in_chains(access.member, {space.id: [space, *above] for space in spaces}), \
            result.last_key

    spaces, roles, last_key = read(start.start, limit)
    items = [SpaceView(space, roles[space.id]) for space in spaces if roles[space.id] is not None]

    def visible(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        _, seen, more_last = read(start_key, MAX_LIMIT)
        return sum(role is not None for role in seen.values()), more_last

    count = carried_count(start, (len(items), last_key), visible)
    return Listing(items, next_page(scope, last_key, count), count)


# --- writes -------------------------------------------------------------------------------------
def create_collection(caller: Caller, org_id: str, body: CreateCollection) -> CollectionView:
    """A new collection placed after the last space or collection at its level."""
    access = org_access(org_id, caller)
    ancestors: list[str] = []
    if body.parent:
        parent = collection_store.get_collection(body.parent)
        # A parent elsewhere, or one the caller cannot see, is reported like a missing one (400: it is a
        # body field), without saying whether it exists.
        if parent is None or parent.org_id != org_id:
            raise BadRequest(NO_PARENT)
        role = roles_on(access.member, [parent])[parent.id]
        if role is None:
            raise BadRequest(NO_PARENT)
        if not at_least(role, "create"):
            raise Forbidden("You need the create role in the parent collection to create a collection in it")
        ancestors = [parent.id, *parent.ancestors]
    else:
        access.require("create", "create collections")
        role = effective_role(access.member, [], set())
    created = now_iso()
    collection = Collection(
        id=new_id(), org_id=org_id, created_at=created, updated_at=created,
        position=between(tree_store.last_child_position(org_id, body.parent), None), parent=body.parent,
        ancestors=ancestors, default_level="inherit",
        title=DEFAULT_TITLE if body.title is None else body.title,
    )
    Transaction(collection_store.create_collection_ops(collection)).commit()
    # No grants and an inherited level: the caller's role on it is the one they have where it was made.
    return CollectionView(collection, role)


def update_collection(caller: Caller, collection_id: str, body: UpdateCollection) -> CollectionView:
    access = collection_access(caller, collection_id)
    access.require("admin", "change this collection")
    collection = _collection(access.node)
    sent = body.model_fields_set
    changed = replace(collection)
    if body.title is not None:
        changed.title = body.title
    if body.description is not None:
        changed.description = body.description
    if "defaultLevel" in sent:
        changed.default_level = body.defaultLevel
    if changed == collection:
        return CollectionView(collection, access.role)
    changed.updated_at = grant_store.next_updated_at(collection.updated_at)
    Transaction([collection_store.update_collection_op(collection, changed)]).commit()
    collection = changed
    # A new level can change the caller's own role (an admin by inheritance who set `read`, say).
    chain: list[Node] = [collection, *access.collections]
    role = roles_in_chains(access.member, {collection.id: chain})[collection.id]
    return CollectionView(collection, role)


def delete_collection(caller: Caller, collection_id: str) -> None:
    """204 when there is no such collection; 404 when there is one the caller cannot see."""
    if collection_store.get_collection(collection_id) is None:
        return
    access = collection_access(caller, collection_id)
    access.require("admin", "delete this collection")
    collection = _collection(access.node)
    if tree_store.has_children(collection.org_id, collection.id):
        raise BadRequest(NOT_EMPTY)
    entries = list(collection.grants)
    # Past what one transaction holds, grants go first, each chunk with its entries in the map: a failure
    # part-way leaves a consistent collection with fewer grants, and a retry finishes.
    while len(entries) > GRANTS_PER_TRANSACTION:
        chunk, entries = entries[:GRANTS_PER_TRANSACTION], entries[GRANTS_PER_TRANSACTION:]
        updated_at = grant_store.next_updated_at(collection.updated_at)
        ops = [grant_store.node_grants_op(collection, dict.fromkeys(chunk), updated_at)]
        for entry in chunk:
            grant_key = grant_store.grant_key("collection", collection.id, *grant_store.split_map_key(entry))
            ops.append(grant_store.delete_grant_op(grant_key))
        Transaction(ops).commit()
        collection.updated_at = updated_at
        for entry in chunk:
            collection.grants.pop(entry)
    Transaction(collection_store.delete_collection_ops(collection)).commit()

