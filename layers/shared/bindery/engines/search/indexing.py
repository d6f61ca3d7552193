"""Building what search and link checks read from a revision, once per revision.

`request_index` queues `{spaceId, revisionId}` for the search indexer (functions/search/search_indexer)
whenever a space moves to a new revision (domain.revisions.space_moved). The worker calls
`build_revision`, which builds the search index and the link report unless they exist (so a repeated
message is a no-op), from the parent revision's index when it can (search.incremental). Reads never
wait for the worker: `ensure_index` and `ensure_report` build what is missing in the request itself
(queue lag, or no queue at all in tests and local runs) and store it, so results are always those of the
revision asked for.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator, Mapping
from typing import Any

from aws_lambda_powertools import Logger
from botocore.exceptions import BotoCoreError, ClientError

from bindery.engines.content.links import all_pages, build_report, report_of
from bindery.engines.content.tree import Tree
from bindery.engines.search import incremental, storage
from bindery.engines.search.incremental import Built
from bindery.engines.search.index import IndexedPage, build
from bindery.engines.search.text import sections
from bindery.platform import queues, stack_urls
from bindery.platform.config import settings
from bindery.platform.messages import IndexMessage
from bindery.store import blobs
from bindery.store import revisions as revision_store
from bindery.store import search as search_store
from bindery.store.objects import object_store
from bindery.store.revisions import Revision, RevisionDocuments
from bindery.store.search import IndexPointer

logger = Logger(service="search")


def request_index(space_id: str, revision_id: str) -> None:
    """Queue the revision for indexing (one SendMessage); nothing when no queue is configured. Called
    after the space moved: a failure to queue is logged, not raised, since the change is committed and
    the first search or link check of the revision builds what the worker would have."""
    url = settings().search_index_queue_url
    if not url:
        return
    try:
        queues.send(url, IndexMessage(spaceId=space_id, revisionId=revision_id))
    except (BotoCoreError, ClientError):
        logger.warning("could not queue a revision for indexing", extra={"spaceId": space_id,
                                                                         "revisionId": revision_id})


def indexed_pages(tree: Tree, documents: Mapping[str, Any]) -> Iterator[IndexedPage]:
    for entry in all_pages(tree.pages):
        if entry["type"] == "document":
            yield IndexedPage(id=entry["id"], title=entry["title"], path=tree.path_of(entry["id"]) or "",
                              description=str(entry.get("description") or ""),
                              sections=sections(entry["title"], documents.get(entry["id"])),
                              document=str(entry.get("documentId") or ""))


def full_build(space_id: str, tree: Tree, documents: RevisionDocuments) -> Built:
    """The index and link report from every document of the revision."""
    links = {page_id: incremental.facts(document) for page_id, document in documents.pages.items()}
    digests = tree.content_documents()
    contents = {content_id: (digests[content_id], incremental.facts(document))
                for content_id, document in documents.contents.items()}
    data, pages = build(indexed_pages(tree, documents.pages), links, contents)
    report = report_of(space_id, tree, {page_id: facts.refs for page_id, facts in links.items()},
                       {page_id: facts.anchors for page_id, facts in links.items()}, _app_base(),
                       {content_id: facts.refs for content_id, (_, facts) in contents.items()})
    return Built(data, pages, report)


# Above this many documents a build from the parent's index (its file, one S3 GET; the changed pages'
# bodies) costs less than a full build (every document read, in one BatchGetItem up to 100, and indexed):
# CPU of the worker for a one-page merge, bench.merge_pipeline_bench --pages (session 39, moto): about
# even at 10 and 30 documents, 45 -> 24 ms at 100; and its BatchGetItem reads 2 items instead of 100.
BUILD_UPON_ABOVE = 32


def worth_building_upon(revision: Revision, tree: Tree) -> bool:
    """Whether to build from the parent's index: when the revision has more than `BUILD_UPON_ABOVE`
    documents (below that, reading and indexing them all costs no more than the parent's file)."""
    return bool(revision.parents) and len(tree.blob_digests()) > BUILD_UPON_ABOVE


def incremental_build(revision: Revision, tree: Tree, parent: IndexPointer | None) -> Built | None:
    """The index and link report made from `parent`, the index of the revision's first parent
    (search.incremental): its file (S3 GET), the changed pages' old and new bodies (one BatchGetItem per
    100). None when that cannot be done (no parent index, another format, no rowid left): build in full."""
    if parent is None or not worth_building_upon(revision, tree):
        return None
    data = object_store().get(storage.object_key(revision.space_id, parent.digest))
    if data is None:
        return None
    # A damaged parent file must cost a full build, never every delivery and search of this revision.
    if hashlib.sha256(data).hexdigest() != parent.digest:
        logger.warning("parent index does not match its digest: full build",
                       extra={"spaceId": revision.space_id, "digest": parent.digest})
        return None
    try:
        return incremental.rebuild(data, revision.space_id, tree, _app_base(),
                                   lambda digests: revision_store.documents(revision.space_id, digests))
    except sqlite3.DatabaseError:
        logger.warning("parent index unreadable: full build", exc_info=True,
                       extra={"spaceId": revision.space_id, "digest": parent.digest})
        return None


def _app_base() -> str:
    return stack_urls.app_base() + "/"


def _built(revision: Revision, tree: Tree, parent: IndexPointer | None) -> Built:
    built = incremental_build(revision, tree, parent)
    if built is None:
        documents = revision_store.revision_documents(revision.space_id, tree)
        built = full_build(revision.space_id, tree, documents)
    return built


def _store_index(revision: Revision, built: Built) -> IndexPointer:
    digest = storage.put(revision.space_id, built.data)
    pointer = IndexPointer(revision.space_id, revision.id, digest, len(built.data), built.pages)
    return search_store.put_index_pointer(pointer)


def _store_report(revision: Revision, report: dict[str, Any]) -> None:
    [digest] = blobs.put_values(revision.space_id, [report])
    search_store.put_report_digest(revision.space_id, revision.id, digest)


def ensure_index(revision: Revision) -> IndexPointer:
    """The revision's index: its pointer (GetItem), or built and stored now."""
    pointer = search_store.get_index_pointer(revision.space_id, revision.id)
    return pointer if pointer is not None else build_index(revision)


def build_index(revision: Revision) -> IndexPointer:
    """The revision's index built and stored now, for a caller that has read its pointer missing."""
    tree = revision_store.load_tree(revision)
    parent = (search_store.get_index_pointer(revision.space_id, revision.parents[0])
              if worth_building_upon(revision, tree) else None)
    return _store_index(revision, _built(revision, tree, parent))


def ensure_report(revision: Revision) -> dict[str, Any]:
    """The revision's link report: read (GetItem + the blob), or built and stored now."""
    digest = search_store.get_report_digest(revision.space_id, revision.id)
    if digest is not None:
        report: dict[str, Any] = blobs.get_value(revision.space_id, digest)
        return report
    tree = revision_store.load_tree(revision)
    documents = revision_store.revision_documents(revision.space_id, tree)
    report = build_report(revision.space_id, tree, documents.pages, _app_base(), contents=documents.contents)
    _store_report(revision, report)
    return report


def build_revision(space_id: str, revision_id: str) -> bool:
    """Build the revision's index and link report unless they exist; False when there is no such
    revision (its space was deleted meanwhile: nothing to do)."""
    revision = revision_store.get_revision(space_id, revision_id)
    if revision is None:
        return False
    found = search_store.built(space_id, revision_id, revision.parents[0] if revision.parents else None)
    if found.index is not None and found.report is not None:
        return True
    built = _built(revision, revision_store.load_tree(revision), found.parent_index)
    if found.index is None:
        _store_index(revision, built)
    if found.report is None:
        _store_report(revision, built.report)
    return True
