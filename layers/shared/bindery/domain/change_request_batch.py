"""Applying a batch of content changes (updateChangeRequestContent of spec 0.202.0) to a change
request's tree, in memory: the result is the next tree, the new page documents and file bytes, and what
each change did. Any invalid change is a 400 naming it (`changes[i]…`), and nothing is written.

Ids of the pages and files the batch inserts are chosen before any change is applied, so that a
Markdown body can link to a page or file inserted later in the batch by its `ref` (`./<ref>.md`,
`./<ref>`). Markdown links also resolve `/pages/<id>`, `/files/<id>` and the paths of existing pages.
"""

from __future__ import annotations

import base64
import binascii
import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.clock import now_iso
from bindery.content.markdown import markdown_to_document
from bindery.content.tree import Tree
from bindery.content.tree_edits import EditableTree, EditError, slugify
from bindery.errors import BadRequest
from bindery.ids import new_id
from bindery.schemas.change_requests import (
    ContentChange,
    DeletePage,
    InsertFiles,
    InsertPage,
    PageBody,
    RevertPage,
    UpdatePage,
    fields_set,
)

MAX_FILE_BYTES = 1024 * 1024
FLAGS = ("hidden", "noIndex", "noRobotsIndex")
TEXTS = ("emoji", "icon", "description")  # an empty string removes the field
DEFAULT_TITLE = "Untitled"
Resolver = Callable[[str], dict[str, Any] | None]


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


@dataclass(frozen=True)
class Context:
    base: Tree  # the change request's current tree, for paths of existing pages
    load_tree: Any  # revision id (None: the change request's base) -> Tree, for reverts
    page_refs: Mapping[str, str]  # ref -> page id chosen for it
    file_refs: Mapping[str, str]  # ref -> file id chosen for it


def _strip(url: str) -> tuple[str, str | None]:
    target, _, anchor = url.partition("#")
    target = target.removeprefix("./")
    return target, anchor or None


def _link_resolver(context: Context) -> Resolver:
    def resolve(url: str) -> dict[str, Any] | None:
        target, anchor = _strip(url)
        page_id = None
        name = target.removesuffix(".md")
        if name in context.page_refs:
            page_id = context.page_refs[name]
        elif target.startswith("/pages/"):
            page_id = target.removeprefix("/pages/").strip("/")
        elif target.startswith("/files/") or target in context.file_refs:
            return _file_resolver(context)(url)
        elif "://" not in target and target and not target.startswith(("mailto:", "/")):
            located = context.base.page_by_path(name.removesuffix("/README"))
            page_id = located.entry["id"] if located else None
        if page_id is None:
            return None
        if anchor:
            return {"kind": "anchor", "page": page_id, "anchor": anchor}
        return {"kind": "page", "page": page_id}
    return resolve


def _file_resolver(context: Context) -> Resolver:
    def resolve(src: str) -> dict[str, Any] | None:
        target, _ = _strip(src)
        if target in context.file_refs:
            return {"kind": "file", "file": context.file_refs[target]}
        if target.startswith("/files/"):
            return {"kind": "file", "file": target.removeprefix("/files/").strip("/")}
        return None
    return resolve


def _body(body: PageBody, context: Context) -> tuple[Any, dict[str, Any]]:
    """The page's document (None: empty) and the metadata its Markdown front matter and title give."""
    if body.document is not None:
        return body.document.model_dump(mode="json"), {}
    if body.markdown is None:
        return None, {}
    parsed = markdown_to_document(body.markdown, resolve_link=_link_resolver(context),
                                  resolve_file=_file_resolver(context))
    meta = {name: parsed.front_matter[name] for name in (*TEXTS, "title")
            if isinstance(parsed.front_matter.get(name), str)}
    meta.update({name: parsed.front_matter[name] for name in FLAGS
                 if isinstance(parsed.front_matter.get(name), bool)})
    if parsed.title:
        meta["title"] = parsed.title
    return parsed.document, meta


def _apply_fields(entry: dict[str, Any], fields: dict[str, Any]) -> None:
    if fields.get("condition") is not None:
        raise EditError("condition: adaptive-content conditions are not supported")
    if fields.get("title"):
        entry["title"] = fields["title"]
    for name in TEXTS:
        if name in fields and fields[name] is not None:
            if fields[name] == "":
                entry.pop(name, None)
            else:
                entry[name] = fields[name]
    for name in FLAGS:
        if fields.get(name) is not None:
            entry[name] = fields[name]
    entry["updatedAt"] = now_iso()


def _insert(change: InsertPage, page_id: str, outcome: Outcome, context: Context) -> None:
    document, meta = _body(change.document, context)
    fields = {**fields_set(change), **meta}
    now = now_iso()
    entry: dict[str, Any] = {"id": page_id, "type": "document", "title": fields.get("title") or DEFAULT_TITLE,
                             "pages": [], "createdAt": now}
    _apply_fields(entry, fields)
    siblings = outcome.tree.children(change.into)
    explicit = bool(change.slug)
    wanted = change.slug or slugify(entry["title"])
    entry["slug"] = outcome.tree.free_slug(siblings, wanted, explicit=explicit)
    outcome.tree.insert(entry, change.into, change.at)
    if document is not None:
        outcome.documents[page_id] = document
    outcome.touch(page_id, "created_page")
    if change.ref:
        outcome.refs[page_id] = change.ref


def _update(change: UpdatePage, outcome: Outcome, context: Context) -> None:
    entry = outcome.tree.page(change.page)
    if entry is None:
        raise EditError(f"page: no page {change.page} in the change request")
    fields = fields_set(change)
    if change.document is not None:
        if entry["type"] != "document":
            raise EditError(f"document: a {entry['type']} page has no document")
        document, meta = _body(change.document, context)
        fields.update(meta)
        if document is None:
            entry.pop("documentId", None)
            outcome.documents.pop(change.page, None)
        else:
            outcome.documents[change.page] = document
    reparent = "into" in change.model_fields_set
    outcome.tree.move(change.page, change.into, change.at, reparent=reparent)
    _apply_fields(entry, fields)
    if fields.get("slug"):
        siblings = outcome.tree.children(outcome.tree.parent_of(change.page))
        entry["slug"] = outcome.tree.free_slug(siblings, fields["slug"], explicit=True, skip=change.page)
    outcome.touch(change.page, "updated_page")


def _delete(change: DeletePage, outcome: Outcome) -> None:
    for page_id in outcome.tree.descendant_ids(change.page):
        outcome.documents.pop(page_id, None)
    outcome.tree.detach(change.page)
    outcome.touch(change.page, "deleted_page")


def _revert(change: RevertPage, outcome: Outcome, context: Context) -> None:
    """The whole page back to its state in the revision (default: the change request's base)."""
    if change.block:
        raise EditError("block: reverting single blocks is not supported; revert the whole page")
    target: Tree = context.load_tree(change.revision)
    then = target.page(change.page)
    now = outcome.tree.page(change.page)
    if then is None and now is None:
        raise EditError(f"page: no page {change.page} in the change request or the revision")
    if then is None:  # added since: remove it
        _delete(DeletePage(operation="delete_page", page=change.page), outcome)
        return
    restored = copy.deepcopy({name: value for name, value in then.entry.items() if name != "pages"})
    outcome.documents.pop(change.page, None)
    if now is not None:  # changed since: its own fields as they were, its pages as they are
        restored["pages"] = now.get("pages") or []
        now.clear()
        now.update(restored)
    else:  # deleted since: back under its parent (if still there) with its pages as they were
        restored["pages"] = copy.deepcopy(list(then.entry.get("pages") or []))
        parent = then.parent if then.parent and outcome.tree.page(then.parent) else None
        known = outcome.tree.page_ids()
        if any(page_id in known for page_id in _ids(restored)):
            raise EditError(f"page: {change.page} cannot be restored: some of its pages exist elsewhere")
        outcome.tree.insert(restored, parent, None)
    outcome.touch(change.page, "updated_page" if now is not None else "created_page")


def _ids(entry: Mapping[str, Any]) -> list[str]:
    ids = [entry["id"]]
    for child in entry.get("pages") or []:
        ids.extend(_ids(child))
    return ids


def _insert_files(change: InsertFiles, file_ids: list[str], outcome: Outcome) -> None:
    for index, (upload, file_id) in enumerate(zip(change.files, file_ids, strict=True)):
        where = f"files[{index}]"
        if upload.url is not None or upload.base64 is None:
            raise EditError(f"{where}.base64: send the bytes inline; fetching a url is not supported")
        if not upload.contentType:
            raise EditError(f"{where}.contentType: required with base64")
        try:
            data = base64.b64decode(upload.base64, validate=True)
        except (binascii.Error, ValueError):
            raise EditError(f"{where}.base64: not valid base64") from None
        if len(data) > MAX_FILE_BYTES:
            raise EditError(f"{where}.base64: larger than 1 MB")
        outcome.tree.value["files"].append({"id": file_id, "name": upload.name,
                                            "contentType": upload.contentType})
        outcome.files[file_id] = data
        outcome.inserted_files.append(file_id)


def _ids_for(changes: list[ContentChange]) -> tuple[dict[int, str], dict[int, list[str]], dict[str, str],
                                                    dict[str, str]]:
    page_ids: dict[int, str] = {}
    file_ids: dict[int, list[str]] = {}
    page_refs: dict[str, str] = {}
    file_refs: dict[str, str] = {}
    for index, change in enumerate(changes):
        if isinstance(change, InsertPage):
            page_ids[index] = new_id()
            if change.ref:
                if change.ref in page_refs:
                    raise BadRequest(f"changes[{index}].ref: {change.ref!r} is used twice in the batch")
                page_refs[change.ref.removesuffix(".md")] = page_ids[index]
        elif isinstance(change, InsertFiles):
            file_ids[index] = [new_id() for _ in change.files]
            for upload, file_id in zip(change.files, file_ids[index], strict=True):
                if upload.ref:
                    if upload.ref in file_refs or upload.ref in page_refs:
                        raise BadRequest(f"changes[{index}].files: ref {upload.ref!r} is used twice")
                    file_refs[upload.ref] = file_id
    return page_ids, file_ids, page_refs, file_refs


def apply_batch(base: Tree, changes: list[ContentChange], load_tree: Any) -> Outcome:
    page_ids, file_ids, page_refs, file_refs = _ids_for(changes)
    context = Context(base, load_tree, page_refs, file_refs)
    outcome = Outcome(EditableTree(base.value))
    for index, change in enumerate(changes):
        try:
            if isinstance(change, InsertPage):
                _insert(change, page_ids[index], outcome, context)
            elif isinstance(change, UpdatePage):
                _update(change, outcome, context)
            elif isinstance(change, DeletePage):
                _delete(change, outcome)
            elif isinstance(change, RevertPage):
                _revert(change, outcome, context)
            else:
                _insert_files(change, file_ids[index], outcome)
        except EditError as error:
            raise BadRequest(f"changes[{index}].{error}") from None
    live = outcome.tree.page_ids()
    outcome.documents = {page_id: doc for page_id, doc in outcome.documents.items() if page_id in live}
    return outcome
