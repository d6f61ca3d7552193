"""Update (the space's content into a change request) and merge (a change request into the space).

Both are three-way merges (content.merge.trees.merge_trees) with the change request's base
(`revisionMergedAncestor`, else `revisionInitial`) as the common ancestor. Conflicts answer the official
contract's 200 `{revision: <the change request's revision>, result: "conflicts"}` and write nothing; the
conflicts themselves are listed by `GET CR/changes` (`pending_conflicts`), computed again on each read.
The merged tree is committed as a new revision (commit_revision, unreferenced until the pointer moves),
then the pointer moves conditionally:

* update: the change request's `revision` (it must still be the one merged), `revisionMergedAncestor`
  becomes the space revision merged in. Needs `edit`.
* merge: ONE transaction moves the space's `revision` (it must still be the one merged, the space live
  and unlocked) with the change request's status counters, and marks the change request merged
  (`revisionMerged`, `mergedBy`, `mergedAt`; it must still be at the revision and status merged).
  Needs `review`, a live (unlocked) space and the merge rules met (domain.change_requests.rules).

A change request based on the space's current revision (the common case) is merged without a merge: the
result is its own content, so the merge revision names its tree blob (`_up_to_date_merge`).

If the space or the change request moved meanwhile the merge is computed again from what they are now
(a few times at most): two concurrent merges into one space both land, neither overwrites the other.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from bindery.domain.access.auth import Caller
from bindery.domain.change_requests import status as status_flow
from bindery.domain.change_requests.edits import load_tree, reread
from bindery.domain.change_requests.records import open_change_request
from bindery.domain.change_requests.rules import check_merge_rules
from bindery.domain.revisions import commit_revision, space_moved
from bindery.domain.spaces.edit_mode import require_editable
from bindery.engines.content.merge.trees import MergeConflict, Merged, PageConflict, merge_trees
from bindery.platform.clock import now_iso
from bindery.platform.errors import Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.store import Transaction, TransactionConflict, blobs
from bindery.store import change_requests as cr_store
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from bindery.store.change_requests import ChangeRequest
from bindery.store.grants import next_updated_at
from bindery.store.revisions import Revision
from bindery.store.spaces import Space

ATTEMPTS = 4
NO_SPACE = "No matching space"


@dataclass(frozen=True)
class Result:
    """What an update or a merge did: `result` is "update" or "merge" (then `revision` is the change
    request's or the space's new revision), or "conflicts" (nothing written: the change request's)."""

    revision: str
    result: Literal["update", "merge", "conflicts"]


def _merge(space_id: str, base: str, ours: str, theirs: str) -> Merged:
    def load_document(digest: str) -> Any:
        return blobs.get_value(space_id, digest)

    trees = [load_tree(space_id, revision).value for revision in (base, ours, theirs)]
    return merge_trees(trees[0], trees[1], trees[2], load_document)


def _commit(space_id: str, parents: list[str], merged: Merged, revision_type: str,
            merged_from: str | None = None) -> str:
    return commit_revision(space_id, parents, merged.tree, merged.documents,
                           reusable_documents=merged.reusable_documents, revision_type=revision_type,
                           merged_from=merged_from)


def _up_to_date_merge(space: Space, change_request: ChangeRequest) -> str | None:
    """The merge revision of a change request based on the space's current revision: its content is the
    change request's (a three-way merge with an unchanged side is the other side), so the new revision
    names the change request's tree blob, content-addressed and already stored: one PutItem, where the
    merge would load three trees, merge 5,000 pages and write the same blob again. None when the change
    request's tree is inline (an empty first revision): then the merge runs."""
    theirs = revision_store.get_revision(space.id, change_request.revision)
    if theirs is None or theirs.tree is None:
        return None
    revision = Revision(id=new_id(), space_id=space.id, created_at=now_iso(),
                        parents=[space.revision, change_request.revision], type="merge", tree=theirs.tree,
                        merged_from=change_request.id)
    revision_store.put_revision(revision)
    return revision.id


def _merge_revision(space: Space, change_request: ChangeRequest) -> str:
    """The merge's new revision, committed (nothing points at it yet); MergeConflict when the change
    request and the space changed the same things."""
    reused = _up_to_date_merge(space, change_request) if space.revision == change_request.base else None
    if reused is not None:
        return reused
    merged = _merge(space.id, change_request.base, space.revision, change_request.revision)
    return _commit(space.id, [space.revision, change_request.revision], merged, "merge", change_request.id)


def _fresh_space(space_id: str) -> Space:
    space = space_store.get_space(space_id)
    if space is None or space.deleted_at is not None:
        raise NotFound(NO_SPACE)
    return space


# --- update -----------------------------------------------------------------------------------------------
def update_change_request(caller: Caller, space_id: str, ref: str) -> Result:
    opened = open_change_request(caller, space_id, ref, "edit", "update this change request")
    change_request, space = opened.change_request, opened.space
    status_flow.require_editable(change_request.status)
    require_editable(space)
    for _ in range(ATTEMPTS):
        if space.revision == change_request.base:
            return Result(change_request.revision, "update")  # already up to date
        try:
            merged = _merge(space_id, change_request.base, change_request.revision, space.revision)
        except MergeConflict:
            return Result(change_request.revision, "conflicts")  # nothing changed
        new_revision = _commit(space_id, [change_request.revision, space.revision], merged, "update")
        changed = replace(change_request, revision=new_revision, revision_merged_ancestor=space.revision,
                          updated_at=next_updated_at(change_request.updated_at))
        try:
            Transaction(cr_store.advance_op(change_request, changed)).commit()
        except TransactionConflict:
            change_request, space = reread(change_request), _fresh_space(space_id)
            continue
        return Result(new_revision, "update")
    raise Conflict("The change request or the space kept changing during the update: nothing was changed; "
                   "try again")


# --- merge ------------------------------------------------------------------------------------------------
def _merge_transaction(space: Space, change_request: ChangeRequest, new_revision: str,
                       caller: Caller) -> Transaction:
    # One item, one operation: the space's pointer and its counters move in the same update.
    advance = revision_store.advance_op(space.id, space.revision, new_revision,
                                        next_updated_at(space.updated_at),
                                        counters=cr_store.status_deltas(change_request.status, "merged"))
    marked = cr_store.mark_merged_op(change_request, new_revision, caller.user_id, now_iso(),
                                     next_updated_at(change_request.updated_at))
    return Transaction(advance, marked, cr_store.cluster_tasks_ops(change_request, "merged"))


def _after_conflict(error: TransactionConflict, space: Space,
                    change_request: ChangeRequest) -> tuple[Space, ChangeRequest]:
    """What to merge next time: re-read whichever side moved (a locked or deleted space, or a change
    request no longer open, ends the attempt with the matching error)."""
    pointer_moved = error.failed(revision_store.SPACE_POINTER)
    if pointer_moved:
        space = _fresh_space(space.id)
        require_editable(space)
    if not pointer_moved or error.failed(cr_store.MARK_MERGED):
        change_request = reread(change_request)
    return space, change_request


def merge_change_request(caller: Caller, space_id: str, ref: str) -> Result:
    opened = open_change_request(caller, space_id, ref, "review", "merge change requests")
    change_request, space = opened.change_request, opened.space
    status_flow.require_editable(change_request.status)
    require_editable(space)
    check_merge_rules(space, change_request, caller.user_id, outdated=space.revision != change_request.base,
                      org=opened.access.org)
    for _ in range(ATTEMPTS):
        try:
            new_revision = _merge_revision(space, change_request)
        except MergeConflict:
            return Result(change_request.revision, "conflicts")  # nothing merged
        try:
            _merge_transaction(space, change_request, new_revision, caller).commit()
        except TransactionConflict as error:
            space, change_request = _after_conflict(error, space, change_request)
            continue
        space_moved(space_id, new_revision)
        return Result(new_revision, "merge")
    raise Conflict("The space kept changing during the merge: nothing was merged; try again")


def pending_conflicts(change_request: ChangeRequest, space: Space) -> list[PageConflict]:
    """What a merge of the change request into the space would meet now (nothing when the change request
    is up to date: then the merge takes its content as it is). The same merge, run dry."""
    if change_request.status in ("merged", "archived") or space.revision == change_request.base:
        return []
    try:
        _merge(space.id, change_request.base, space.revision, change_request.revision)
    except MergeConflict as conflict:
        return conflict.conflicts
    return []
