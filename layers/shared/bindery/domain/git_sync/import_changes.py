"""What a re-import must store: only the files and documents whose bytes the space does not already
hold under the same id.

Files and documents are content-addressed (store.blobs): an imported file or document that is
byte-for-byte what the previous revision had under the same id keeps its stored digest in the imported
tree (`digest`/`size`, `documentId`, a reusable content's `document`) and is left out of what
commit_revision writes. A re-import of an unchanged repository thus uploads no file and rewrites no
document: it writes the new tree and the revision.

`store_files` then uploads the new and changed files one at a time, streamed from the fetched repository
(store.blobs.put_file_stream), and fills in their digests: however large the repository, the import holds
one file's bytes at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bindery.engines.content.tree import Tree
from bindery.engines.gitsync.importer import ImportedContent
from bindery.engines.gitsync.repository_files import FilesById
from bindery.store import blobs


@dataclass(frozen=True)
class Changes:
    tree: dict[str, Any]  # the imported tree, unchanged entries carrying their stored digests
    documents: dict[str, Any]  # page id -> document to store
    reusable_documents: dict[str, Any]  # reusable content id -> document to store
    files: FilesById  # file id -> bytes to store (read on access)


def _pages(entries: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for entry in entries:
        yield entry
        yield from _pages(entry.get("pages") or [])


def changes(imported: ImportedContent, previous: Tree) -> Changes:
    tree = imported.tree
    changed = []
    for entry in tree["files"]:
        if entry["id"] not in imported.files:
            continue
        before = previous.file(entry["id"])
        facts = imported.files.describe(entry["id"])
        if before is not None and before.get("digest") == facts.sha256:
            entry.update(digest=facts.sha256, size=facts.size)
        else:
            changed.append(entry["id"])
    files = imported.files.only(changed)
    documents = dict(imported.documents)
    for entry in _pages(tree["pages"]):
        located = previous.page(entry["id"])
        document = documents.get(entry["id"])
        if located is None or document is None or not located.entry.get("documentId"):
            continue
        digest = blobs.encode(document).digest
        if located.entry["documentId"] == digest:
            entry["documentId"] = digest
            del documents[entry["id"]]
    reusable = dict(imported.reusable_documents)
    for entry in tree.get("reusableContents") or []:
        content = previous.reusable_content(entry["id"])
        document = reusable.get(entry["id"])
        if content is None or document is None or not content.get("document"):
            continue
        digest = blobs.encode(document).digest
        if content["document"] == digest:
            entry["document"] = digest
            del reusable[entry["id"]]
    return Changes(tree, documents, reusable, files)


def store_files(space_id: str, stored: Changes) -> Changes:
    """Upload `stored.files` (each streamed, never whole in a request body) and give their tree entries
    `digest` and `size`: what is left for commit_revision has no file bytes."""
    for entry in stored.tree["files"]:
        if entry["id"] in stored.files:
            facts = stored.files.describe(entry["id"])
            with stored.files.open(entry["id"]) as stream:
                blobs.put_file_stream(space_id, facts.sha256, stream)
            entry.update(digest=facts.sha256, size=facts.size)
    return Changes(stored.tree, stored.documents, stored.reusable_documents, stored.files.only([]))
