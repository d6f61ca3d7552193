"""Writing content: commit an immutable revision, then move a space (or, later, a change request) to it.

The two steps are separate on purpose (docs/content-model.md, "Writing"):

1. `commit_revision` stores what is new — file bytes, document blobs, the tree blob — and then the
   revision item. Nothing points at the revision yet, so a failure leaves at most unreferenced blobs,
   which no read ever sees.
2. `advance_space` moves the space's `revision` pointer from the revision the writer started from to the
   new one, in one conditional UpdateItem. If anyone advanced the space meanwhile, the condition fails
   and nothing changes (409): the writer re-reads, rebases its change and commits again. No update is
   ever lost, whatever the number of concurrent writers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bindery.domain.integrations.content_events import Setups, space_content_updated
from bindery.engines.content.tree import InvalidTree, Tree, validate, with_digests
from bindery.engines.search.indexing import request_index
from bindery.platform.clock import now_iso
from bindery.platform.errors import Conflict, Forbidden, NotFound
from bindery.platform.ids import new_id
from bindery.store import blobs
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from bindery.store.grants import next_updated_at
from bindery.store.revisions import Revision
from bindery.store.spaces import Space

Document = Mapping[str, Any]


class RevisionMoved(Conflict):
    """The space no longer points at the revision the writer started from."""


def _check_targets(tree: Tree, documents: Mapping[str, Any], contents: Mapping[str, Any],
                   files: Mapping[str, bytes]) -> None:
    for page_id in documents:
        located = tree.page(page_id)
        if located is None or located.entry["type"] != "document":
            raise InvalidTree(f"documents: {page_id} is not a document page of the tree")
    for content_id in contents:
        if tree.reusable_content(content_id) is None:
            raise InvalidTree(f"reusable contents: {content_id} is not in the tree")
    for file_id in files:
        if tree.file(file_id) is None:
            raise InvalidTree(f"files: {file_id} is not in the tree")


def commit_revision(space_id: str, parent_revision_ids: list[str], tree: Mapping[str, Any],
                    documents: Mapping[str, Document] | None = None, *,
                    reusable_documents: Mapping[str, Document] | None = None,
                    files: Mapping[str, bytes] | None = None, git: dict[str, Any] | None = None,
                    revision_type: str = "edits", merged_from: str | None = None) -> str:
    """Store a new revision of the space; its id. A `merge` revision names the change request merged.

    `tree` is the complete next tree (content.tree). Pages and reusable contents whose body is new or
    changed get it in `documents` / `reusable_documents` (by page / content id): their digest is filled in
    here. Everything else keeps the digest it has, which must name a blob the space already stores (a
    tree derived from one of its revisions). `files` gives the bytes of new or changed files, by file id
    (their `digest` and `size` are filled in here).

    Writes: one S3 PUT per file in `files`; one BatchWriteItem per 25 blobs (the new documents and the
    tree, plus an S3 PUT for each one too large for an item); one PutItem for the revision. A one-page
    edit is therefore one BatchWriteItem of two items and one PutItem, whatever the size of the space.
    """
    documents, reusable_documents, files = documents or {}, reusable_documents or {}, files or {}
    encoded_pages = {page_id: blobs.encode(document) for page_id, document in documents.items()}
    encoded_contents = {cid: blobs.encode(document) for cid, document in reusable_documents.items()}
    file_fields = {file_id: {"digest": blobs.file_digest(data), "size": len(data)}
                   for file_id, data in files.items()}
    validate(tree, new_files=files)
    value = with_digests(tree, {page_id: e.digest for page_id, e in encoded_pages.items()},
                         {cid: e.digest for cid, e in encoded_contents.items()}, file_fields)
    _check_targets(Tree(value), documents, reusable_documents, files)
    for data in files.values():
        blobs.put_file(space_id, data)
    encoded_tree = blobs.encode(value)
    blobs.put_encoded(space_id, [*encoded_pages.values(), *encoded_contents.values(), encoded_tree])
    revision = Revision(id=new_id(), space_id=space_id, created_at=now_iso(),
                        parents=list(parent_revision_ids), type=revision_type, git=git,
                        tree=encoded_tree.digest, merged_from=merged_from)
    revision_store.put_revision(revision)
    return revision.id


def space_moved(space_id: str, revision_id: str, *, setups: Setups | None = None) -> None:
    """What follows every move of a space to a new revision, wherever it is made (here, a merge, a Git
    Sync import): search and link checks of the revision (docs/search.md), and the
    `space_content_updated` events of the space's integrations (docs/integrations.md; `setups`: the
    space's installations when the caller already read them)."""
    request_index(space_id, revision_id)
    space_content_updated(space_id, revision_id, setups=setups)


def advance_space(space: Space, expected_revision: str, new_revision: str) -> Space:
    """Point `space` at `new_revision` if it still points at `expected_revision`, is live and is not
    locked: one UpdateItem, which also moves `updatedAt` (so that writers holding the old `updatedAt`
    notice), then `space_moved` (one Query for the integrations set up on the space). On failure one
    GetItem tells why: 404 (gone), 403 (locked), 409 RevisionMoved."""
    updated_at = next_updated_at(space.updated_at)
    if revision_store.advance(space.id, expected_revision, new_revision, updated_at):
        space_moved(space.id, new_revision)
        return replace(space, revision=new_revision, updated_at=updated_at)
    now = space_store.get_space(space.id)
    if now is None or now.deleted_at is not None:
        raise NotFound("No matching space")
    if now.edit_mode == "locked":
        raise Forbidden("This space is locked (editMode: locked): its content cannot be changed")
    raise RevisionMoved(f"The space's content changed meanwhile (it is now at revision {now.revision}, "
                        f"not {expected_revision}): nothing was changed; re-read it and try again.")


def copy_content(source_space_id: str, revision: Revision, target_space_id: str) -> None:
    """Make `revision`'s content (tree, documents, file bytes) readable from `target_space_id` too: a
    revision item naming its tree can then be written in the target's partition (duplicating a space:
    store.spaces.copied_revision_item copies the item, `tree` included). Blobs are per space, so this
    is one request per 100 blobs read, per 25 written, per large value and per file copied."""
    if revision.tree is None:
        return  # an inline (empty) tree: the item holds everything
    tree = revision_store.load_tree(revision)
    blobs.copy_values(source_space_id, target_space_id, [revision.tree, *tree.blob_digests()])
    blobs.copy_files(source_space_id, target_space_id, [entry["digest"] for entry in tree.files])
