"""What a content batch builds while it is applied (domain.change_requests.batch): the next tree, the new
page documents and file bytes, what happened to each page; and what every change may read."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.tree import Tree
from bindery.engines.content.tree_edits import EditableTree


@dataclass
class Outcome:
    tree: EditableTree
    documents: dict[str, Any] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    touched: dict[str, str] = field(default_factory=dict)  # page id -> created_page/updated_page/deleted_page
    refs: dict[str, str] = field(default_factory=dict)  # page id -> the ref its insert gave
    inserted_files: list[str] = field(default_factory=list)

    def touch(self, page_id: str, what: str) -> None:
        if self.touched.get(page_id) == "created_page" and what == "updated_page":
            return
        self.touched[page_id] = what

    def delete_page(self, page_id: str) -> None:
        for gone in self.tree.descendant_ids(page_id):
            self.documents.pop(gone, None)
        self.tree.detach(page_id)
        self.touch(page_id, "deleted_page")


@dataclass(frozen=True)
class Context:
    base: Tree  # the change request's current tree, for paths of existing pages
    load_tree: Callable[[str | None], Tree]  # revision id (None: the change request's base), for reverts
    load_document: Callable[[str], Any]  # a document blob of the space by digest, for block reverts
    page_refs: Mapping[str, str]  # ref -> page id chosen for it
    file_refs: Mapping[str, str]  # ref -> file id chosen for it

    def page_document(self, outcome: Outcome, entry: Mapping[str, Any]) -> Any:
        """A page's document as the batch has it so far (None: empty)."""
        if entry["id"] in outcome.documents:
            return outcome.documents[entry["id"]]
        digest = entry.get("documentId")
        return self.load_document(str(digest)) if digest else None
