"""Deleting, restoring and duplicating spaces.

Delete keeps the item (with `deletedAt` and the TTL attribute 7 days out) and takes it out of every
listing in the same write; until the TTL passes, `restore` puts it back where it was. Past the TTL the
space is gone for every read (`table.is_live`) even before DynamoDB removes the item, so restore is a 404.
The members' and teams' `spaces` counters count direct grants on live spaces, so each of these writes
moves them in the same transaction (see store.spaces).

Each write is conditioned on the space being as it was read; when a concurrent request changed it, the
request reads again and retries (a few times), so that a 409 only comes from sustained contention.
"""

from __future__ import annotations

from dataclasses import replace

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import ContentAccess, roles_on, space_access
from bindery.domain.access.roles import at_least
from bindery.domain.access.space_roles import role_at
from bindery.domain.spaces.records import SpaceView
from bindery.engines.content.positions import between
from bindery.platform import clock
from bindery.platform.errors import Conflict, Forbidden, NotFound
from bindery.platform.ids import new_id
from bindery.store import Op, Transaction, TransactionConflict
from bindery.store import grants as grant_store
from bindery.store import spaces as space_store
from bindery.store import tree as tree_store
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.collections import Collection
from bindery.store.grants import next_updated_at
from bindery.store.revisions import Revision
from bindery.store.spaces import RESTORE_WINDOW_SECONDS, Space

COPY_SUFFIX = " (copy)"
TITLE_MAX = 50
ATTEMPTS = 3
MAX_TRANSACTION = 100


def _space(access: ContentAccess) -> Space:
    assert isinstance(access.node, Space)
    return access.node


def _parent(access: ContentAccess, space: Space) -> Collection | None:
    """The space's parent collection, as the access check read it (None at the top level, if gone, or if it
    was transferred to another organization while the space was deleted)."""
    nearest = access.collections[0] if access.collections else None
    if nearest is None or nearest.id != space.parent or nearest.org_id != space.org_id:
        return None
    return nearest


def _existing_principals(space: Space) -> list[str]:
    """The `grants` entries whose member or team still exists (one BatchGetItem): only those have a
    counter to move."""
    if not space.grants:
        return []
    principals = {entry: grant_store.principal_key(space.org_id, *grant_store.split_map_key(entry))
                  for entry in space.grants}
    found = items_by_key(principals.values())
    return [entry for entry, key in principals.items() if ref(key) in found]


def _transact(ops: list[Op], action: str) -> None:
    if len(ops) > MAX_TRANSACTION:
        # One grant costs one or two writes; past 100 writes the change could not be all-or-nothing.
        raise Conflict(f"This space has too many direct grants to {action} it in one step; "
                       "remove some of its grants first.")
    Transaction(ops).commit()


def _contended(action: str) -> Conflict:
    return Conflict(f"The space kept changing while trying to {action} it; nothing was changed.")


def delete_space(caller: Caller, space_id: str) -> None:
    """204 whether or not there was something to delete. A space the caller cannot see is "missing" to
    them too: answering 404 there but 204 for unknown ids would tell outsiders which ids exist."""
    for _ in range(ATTEMPTS):
        try:
            access = space_access(caller, space_id)
        except NotFound:
            return  # unknown, already deleted (perhaps by a concurrent request), or not visible
        access.require("admin", "delete this space")
        space = _space(access)
        now = clock.now()
        ops = [space_store.delete_space_op(space, deleted_at=clock.iso(now),
                                           expires_at=int(now.timestamp()) + RESTORE_WINDOW_SECONDS,
                                           updated_at=next_updated_at(space.updated_at)),
               space_store.live_count_op(space, -1),
               *space_store.counter_ops(space, _existing_principals(space), -1)]
        try:
            _transact(ops, "delete")
        except TransactionConflict:
            continue
        return
    raise _contended("delete")


def _restored_place(access: ContentAccess, space: Space) -> Space:
    """The space as restored: at its old position under its parent collection, or at the end of the top
    level when that collection no longer exists. Ancestors are re-read from the parent, which may have
    moved while the space was deleted."""
    parent = _parent(access, space)
    if parent is not None:
        return replace(space, ancestors=[parent.id, *parent.ancestors])
    if space.parent is None:
        return space
    top = tree_store.last_child_position(space.org_id, None)
    return replace(space, parent=None, ancestors=[], position=between(top, None))


def _restore_once(access: ContentAccess) -> SpaceView | None:
    access.require("admin", "restore this space")
    space = _space(access)
    now = clock.now()
    # Conditioned on the space as read (`updatedAt`): its grants decide which counters move.
    place = _restored_place(access, space)
    restored_at = next_updated_at(space.updated_at)
    ops = [space_store.restore_space_op(place, restored_at=restored_at, now_epoch=int(now.timestamp())),
           *space_store.parent_check_ops(place), space_store.live_count_op(place, 1),
           *space_store.counter_ops(place, _existing_principals(place), 1)]
    try:
        _transact(ops, "restore")
    except TransactionConflict:
        return None
    restored = replace(place, updated_at=restored_at, deleted_at=None, expires_at=None)
    role = roles_on(access.member, [restored])[restored.id]
    return SpaceView(restored, role)


def restore_space(caller: Caller, space_id: str) -> SpaceView:
    """200 with the space. Restoring a space that is not deleted answers it as it is (so a retried
    restore succeeds); one whose restore window has closed is a 404, like one that never existed."""
    for _ in range(ATTEMPTS):
        try:
            access = space_access(caller, space_id, deleted=True)
        except NotFound:
            live = space_access(caller, space_id)  # 404 when there is no space at all
            live.require("admin", "restore this space")
            return SpaceView(_space(live), live.role)
        restored = _restore_once(access)
        if restored is not None:
            return restored
    raise _contended("restore")


def _copy_title(title: str) -> str:
    return title[: TITLE_MAX - len(COPY_SUFFIX)] + COPY_SUFFIX


def _copy_position(space: Space) -> str:
    following = space_store.next_sibling_position(space)
    if following is None:
        return between(space.position, None)
    if following > space.position:
        return between(space.position, following)
    # Two siblings created at the same moment can share a position (their ids order them); nothing fits
    # strictly between equal positions, so the copy shares it too and its newer id places it after them.
    return space.position


def duplicate_space(caller: Caller, space_id: str) -> SpaceView:
    """201 with a new space right after the original: its settings, grants and current content, titled
    as a copy, with fresh counters. Needs `create` where the original lives (the organization at the top
    level, else its parent collection), as creating a space there does. The original is not written."""
    access = space_access(caller, space_id)
    space = _space(access)
    if not at_least(role_at(access.member, _parent(access, space)), "create"):
        raise Forbidden("You need the create role where this space lives to duplicate it")
    # Grants to members or teams that no longer exist are not copied: they grant nothing.
    kept = set(_existing_principals(space))
    created = clock.now_iso()
    copy = Space(
        id=new_id(), org_id=space.org_id, created_at=created, updated_at=created,
        position=_copy_position(space), parent=space.parent, ancestors=list(space.ancestors),
        default_level=space.default_level,
        grants={entry: role for entry, role in space.grants.items() if entry in kept},
        title=_copy_title(space.title), emoji=space.emoji, icon=space.icon, visibility=space.visibility,
        revision=new_id(), edit_mode=space.edit_mode, merge_rules=space.merge_rules,
        language=space.language,
    )
    source = space_store.get_revision(space.id, space.revision)
    if source is not None:
        # Blobs are per space: the copy's partition must hold every value its revision names before
        # the revision is written (idempotent writes, so a failed duplicate leaves only unread blobs).
        # Imported here: the revisions' domain brings the search indexer and the integrations' content
        # events, which nothing else SpacesFunction loads with needs (bench/README.md, "Cold start").
        from bindery.domain.revisions import copy_content
        copy_content(space.id, Revision.from_item(source), copy.id)
    revision = space_store.copied_revision_item(source, copy.id, copy.revision, created)
    _transact(space_store.duplicate_space_ops(copy, revision), "duplicate")
    # Same level, place and (live) grants as the original: the caller's role on the copy is theirs on it.
    return SpaceView(copy, access.role)
