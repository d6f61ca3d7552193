"""What a re-import must store: only the files and documents whose bytes the space does not already
hold under the same id.

Files and documents are content-addressed (store.blobs): an imported file or document that is
byte-for-byte what the previous revision had under the same id keeps its stored digest in the imported
tree (`digest`/`size`, `documentId`, a reusable content's `document`) and is left out of what
commit_revision writes. A re-import of an unchanged repository thus uploads no file and rewrites no
document: it writes the new tree and the revision.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bindery.content.tree import Tree
from bindery.gitsync.importer import ImportedContent
from bindery.store import blobs


@dataclass(frozen=True)
class Changes:
    tree: dict[str, Any]  # the imported tree, unchanged entries carrying their stored digests
    documents: dict[str, Any]  # page id -> document to store
    reusable_documents: dict[str, Any]  # reusable content id -> document to store
    files: dict[str, bytes]  # file id -> bytes to store


def _pages(entries: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for entry in entries:
        yield entry
        yield from _pages(entry.get("pages") or [])


def changes(imported: ImportedContent, previous: Tree) -> Changes:
    tree = imported.tree
    files = {}
    for entry in tree["files"]:
        data = imported.files.get(entry["id"])
        if data is None:
            continue
        before = previous.file(entry["id"])
        digest = blobs.file_digest(data)
        if before is not None and before.get("digest") == digest:
            entry.update(digest=digest, size=len(data))
        else:
            files[entry["id"]] = data
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
