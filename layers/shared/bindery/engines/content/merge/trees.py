"""Three-way merge of revision trees: what `POST …/change-requests/{id}/update` (the space's current
revision into the change request, base = the change request's base) and `…/merge` (the change request
into the space) commit.

`merge_trees(base, ours, theirs, load_document)` merges pages (content.merge.pages), their documents
block by block (content.merge.documents), files, reusable contents and variables (content.merge.entries),
and returns the complete next tree for `domain.revisions.commit_revision`, with the documents that need
a new blob. Anything both sides changed incompatibly raises `MergeConflict` (409) listing every
conflicting page: the caller commits nothing. Pure: no I/O but `load_document`. Rules: docs/merge.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bindery.engines.content.merge.documents import merge_documents
from bindery.engines.content.merge.entries import merge_entries, merge_variables
from bindery.engines.content.merge.pages import merge_pages
from bindery.engines.content.tree import validate
from bindery.platform.errors import Conflict

LoadDocument = Callable[[str], Any]


@dataclass(frozen=True)
class PageConflict:
    """One reason the merge cannot be done. `kind` says what `page_id` names: a page, or for the
    tree's other collections a file, reusable content or variable (then `title` is its name)."""

    page_id: str
    title: str
    reason: str
    kind: str = "page"

    def describe(self) -> str:
        return f"{self.kind} '{self.title}' ({self.page_id}): {self.reason}"


class MergeConflict(Conflict):
    """The two sides' changes conflict: nothing was merged. The message lists every conflict."""

    def __init__(self, conflicts: list[PageConflict]) -> None:
        self.conflicts = conflicts
        count = len({(c.kind, c.page_id) for c in conflicts})
        what = "page" if all(c.kind == "page" for c in conflicts) else "item"
        super().__init__(
            f"The changes conflict on {count} {what}{'s' if count != 1 else ''}; nothing was changed. "
            + "; ".join(c.describe() for c in conflicts)
        )


@dataclass(frozen=True)
class Merged:
    tree: dict[str, Any]  # the complete next tree: unchanged bodies keep their digest
    documents: dict[str, Any]  # page id -> merged document, for pages needing a new blob
    reusable_documents: dict[str, Any]  # reusable content id -> merged document, likewise


def _merge_body(digests: tuple[Any, Any, Any], load_document: LoadDocument
                ) -> tuple[str | None, dict[str, Any] | None, list[str]]:
    """A body both sides changed: (digest of the side it equals, or None with the merged document),
    and the conflicts."""
    documents = [load_document(digest) if digest else None for digest in digests]
    merged, reasons = merge_documents(*documents)
    for digest, document in zip(digests[1:], documents[1:], strict=True):
        if digest and document == merged:
            return digest, None, reasons
    return None, merged, reasons


def _merge_value(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """A value merged whole: the side that changed it wins; both changing it differently clash."""
    if theirs in (ours, base):
        return ours, False
    if ours == base:
        return theirs, False
    return ours, True


def merge_trees(base: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any],
                load_document: LoadDocument) -> Merged:
    """Merge the changes from `base` to `theirs` into `ours`; raise MergeConflict if they conflict.
    The result does not depend on which side is `ours` (docs/merge.md, "Ordering")."""
    conflicts: list[PageConflict] = []
    pages = merge_pages(*(list(tree.get("pages") or []) for tree in (base, ours, theirs)))
    for page_id, reason in pages.conflicts:
        conflicts.append(PageConflict(page_id, pages.titles.get(page_id, page_id), reason))
    documents: dict[str, Any] = {}
    digests: dict[str, str] = {}
    for page_id, bodies in pages.bodies.items():
        digest, document, reasons = _merge_body(bodies, load_document)
        conflicts += [PageConflict(page_id, pages.titles[page_id], reason) for reason in reasons]
        if digest is not None:
            digests[page_id] = digest
        elif document is not None:
            documents[page_id] = document

    files = merge_entries(*(list(tree.get("files") or []) for tree in (base, ours, theirs)), label="name",
                          wording={"digest": "the file's content", "size": "the file's content"})
    conflicts += [PageConflict(i, name, reason, "file") for i, name, reason in files.conflicts]
    contents = merge_entries(*(list(tree.get("reusableContents") or []) for tree in (base, ours, theirs)),
                             label="title", body="document")
    conflicts += [PageConflict(i, t, reason, "reusable content") for i, t, reason in contents.conflicts]
    reusable_documents: dict[str, Any] = {}
    titles = {entry["id"]: str(entry.get("title", entry["id"])) for entry in contents.entries}
    for content_id, bodies in contents.bodies.items():
        digest, document, reasons = _merge_body(bodies, load_document)
        conflicts += [PageConflict(content_id, titles[content_id], r, "reusable content") for r in reasons]
        for entry in contents.entries:
            if entry["id"] == content_id and digest is not None:
                entry["document"] = digest
        if digest is None and document is not None:
            reusable_documents[content_id] = document
    variables, clashes = merge_variables(*(tree.get("variables") or {} for tree in (base, ours, theirs)))
    conflicts += [PageConflict(name, name, "both sides set it differently", "variable") for name in clashes]
    git_sync, git_clash = _merge_value(*(tree.get("gitSync") for tree in (base, ours, theirs)))
    if git_clash:
        conflicts.append(PageConflict("gitSync", ".gitbook.yaml", "both sides changed it differently",
                                      "Git Sync setting"))
    if conflicts:
        raise MergeConflict(conflicts)

    tree = {"pages": _with_digests(pages.pages, digests), "files": files.entries,
            "reusableContents": contents.entries, "variables": variables,
            **({"gitSync": git_sync} if git_sync else {})}
    validate(tree)  # each merge rule keeps a valid tree valid: a failure here is a bug, not a conflict
    return Merged(tree, documents, reusable_documents)


def _with_digests(pages: list[dict[str, Any]], digests: Mapping[str, str]) -> list[dict[str, Any]]:
    for entry in pages:
        if entry["id"] in digests:
            entry["documentId"] = digests[entry["id"]]
        _with_digests(entry.get("pages") or [], digests)
    return pages
