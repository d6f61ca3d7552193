"""`POST CR/content`: an ordered batch of content changes, applied atomically as ONE new revision of
the change request (domain.change_requests.batch builds it; an invalid change rejects the whole batch).

Needs the `edit` role and a draft or open change request. The new revision is committed in the space's
partition (`commit_revision`, parent: the change request's revision), then the change request is moved
to it in one transaction: a conditional update of its `revision` (it must still be the one the batch was
applied to) with the caller's contribution. If another edit moved the change request meanwhile, the
batch — which names pages by id — is applied again on top of it (a few times at most), so concurrent
edits never lose each other; a batch that no longer applies is a 400 like any invalid one.

A locked space (`editMode: locked`) takes no change-request edits, though they would not change the space:
API.md's "locked" locks all edits (docs/change-requests.md).

The result is typed (`ContentUpdate`); bindery.api.wire.content shapes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.change_requests import status as status_flow
from bindery.domain.change_requests.batch import apply_batch
from bindery.domain.change_requests.outcome import Outcome
from bindery.domain.change_requests.records import (
    NO_CHANGE_REQUEST,
    ChangeRequestView,
    Opened,
    change_request_view,
    open_change_request,
)
from bindery.domain.change_requests.uploads import read_uploads
from bindery.domain.revisions import commit_revision
from bindery.domain.spaces.edit_mode import require_editable
from bindery.engines.content.tree import InvalidTree, Tree
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.requests.change_requests import UpdateContent
from bindery.store import Transaction, TransactionConflict, blobs
from bindery.store import change_requests as cr_store
from bindery.store import reviews as review_store
from bindery.store import revisions as revision_store
from bindery.store.change_requests import ChangeRequest
from bindery.store.grants import next_updated_at

ATTEMPTS = 3


@dataclass(frozen=True)
class ContentUpdate:
    """The change request after the edit; unless `compat`, also what the batch did: the pages it touched
    (`touched`: page id -> created_page, updated_page or deleted_page; `refs`: the ref an insert gave),
    and the tree entries of the files it inserted, in the change request's new revision."""

    change_request: ChangeRequestView
    compat: bool
    touched: Mapping[str, str] = field(default_factory=dict)
    refs: Mapping[str, str] = field(default_factory=dict)
    inserted_files: list[Mapping[str, Any]] = field(default_factory=list)


def load_tree(space_id: str, revision_id: str) -> Tree:
    revision = revision_store.get_revision(space_id, revision_id)
    if revision is None:
        raise BadRequest(f"revision: no revision {revision_id} in this space")
    return revision_store.load_tree(revision)


def advance(change_request: ChangeRequest, new_revision: str, caller: Caller) -> bool:
    """Move the change request from the revision it was read at to `new_revision`, counting the caller's
    contribution; False when it moved (or stopped being editable) meanwhile."""
    now = next_updated_at(change_request.updated_at)
    try:
        Transaction([
            cr_store.advance_op(change_request,
                                replace(change_request, revision=new_revision, updated_at=now),
                                contributor=caller.user_id),
            review_store.contribution_op(change_request.space_id, change_request.id, caller.user_id,
                                         now_iso()),
        ]).commit()
    except TransactionConflict:
        return False
    return True


def reread(change_request: ChangeRequest) -> ChangeRequest:
    fresh = cr_store.get_change_request(change_request.space_id, change_request.id)
    if fresh is None:
        raise NotFound(NO_CHANGE_REQUEST)
    status_flow.require_editable(fresh.status)
    return fresh


def _commit(change_request: ChangeRequest, outcome: Outcome) -> str:
    try:
        return commit_revision(change_request.space_id, [change_request.revision], outcome.tree.value,
                               outcome.documents, files=outcome.files)
    except InvalidTree as error:
        raise BadRequest(f"changes: {error}") from None


def update_content(caller: Caller, space_id: str, ref: str, body: UpdateContent, *,
                   compat: bool = True) -> ContentUpdate:
    opened: Opened = open_change_request(caller, space_id, ref, "edit", "edit this change request")
    change_request = opened.change_request
    status_flow.require_editable(change_request.status)
    require_editable(opened.space)
    uploads = read_uploads(body.changes)  # fetched once, whatever the retries

    def load_document(digest: str) -> Any:
        return blobs.get_value(space_id, digest)

    for _ in range(ATTEMPTS):
        base = change_request.base

        def revision_tree(revision_id: str | None, base_id: str = base) -> Tree:
            return load_tree(space_id, revision_id or base_id)

        outcome = apply_batch(load_tree(space_id, change_request.revision), body.changes, uploads,
                              load_tree=revision_tree, load_document=load_document)
        new_revision = _commit(change_request, outcome)
        if advance(change_request, new_revision, caller):
            break
        change_request = reread(change_request)
    else:
        raise Conflict("The change request was edited by others too often meanwhile: nothing was changed; "
                       "try again")
    updated = cr_store.get_change_request(space_id, change_request.id) or change_request
    shown = change_request_view(updated, opened.space, opened.access.member)
    if compat:
        return ContentUpdate(shown, compat=True)
    tree = load_tree(space_id, updated.revision)
    inserted = [entry for file_id in outcome.inserted_files if (entry := tree.file(file_id)) is not None]
    return ContentUpdate(shown, compat=False, touched=outcome.touched, refs=outcome.refs,
                         inserted_files=inserted)
