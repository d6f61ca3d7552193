"""Applying a batch of content changes (updateChangeRequestContent of spec 0.202.0) to a change
request's tree, in memory: the result is the next tree, the new page documents and file bytes, and what
each change did. Any invalid change is a 400 naming it (`changes[i]…`), and nothing is written.

Ids of the pages and files the batch inserts are chosen before any change is applied, so that a
Markdown body can link to a page or file inserted later in the batch by its `ref` (`./<ref>.md`,
`./<ref>`). Markdown links also resolve `/pages/<id>`, `/files/<id>` and the paths of existing pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bindery.domain.change_requests.outcome import Context, Outcome
from bindery.domain.change_requests.reverts import revert
from bindery.domain.change_requests.uploads import Uploads

# The package loads markdown-it on first use: routes that never convert do not pay for it.
from bindery.engines.content import markdown as markdown_engine
from bindery.engines.content.expressions import UNKNOWN, ExpressionError, evaluate_expression
from bindery.engines.content.tree import Tree
from bindery.engines.content.tree_edits import EditableTree, EditError, slugify
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest
from bindery.platform.ids import new_id
from bindery.requests.change_requests import (
    ContentChange,
    DeletePage,
    InsertFiles,
    InsertPage,
    PageBody,
    RevertPage,
    UpdatePage,
    fields_set,
)

FLAGS = ("hidden", "noIndex", "noRobotsIndex")
TEXTS = ("emoji", "icon", "description")  # an empty string removes the field
DEFAULT_TITLE = "Untitled"
MAX_ICON = 50  # the spec's `Icon`, as the request's own field
Resolver = Callable[[str], dict[str, Any] | None]


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


def _body(body: PageBody, context: Context) -> tuple[Any, dict[str, Any], dict[str, str]]:
    """The page's document (None: empty), the metadata its Markdown front matter and title give, and the
    hint styles its Markdown wrote otherwise than the spec's, by block key (ParsedPage.hint_styles)."""
    if body.document is not None:
        return body.document.model_dump(mode="json"), {}, {}
    if body.markdown is None:
        return None, {}, {}
    parsed = markdown_engine.markdown_to_document(body.markdown, resolve_link=_link_resolver(context),
                                  resolve_file=_file_resolver(context))
    meta = {name: parsed.front_matter[name] for name in (*TEXTS, "title")
            if isinstance(parsed.front_matter.get(name), str)}
    meta.update({name: parsed.front_matter[name] for name in FLAGS
                 if isinstance(parsed.front_matter.get(name), bool)})
    # The same limit as the request's own `icon` (the spec's Icon), unlike a Git Sync import, which keeps
    # such an icon aside: the caller can correct the request (docs/decisions.md).
    if len(meta.get("icon", "")) > MAX_ICON:
        raise EditError(f"document.markdown: front matter icon is longer than {MAX_ICON} characters")
    if parsed.title:
        meta["title"] = parsed.title
    return parsed.document, meta, parsed.hint_styles


def _keep_hints(entry: dict[str, Any], hints: dict[str, str]) -> None:
    """The hint styles of the page's new body kept for the export, as a Git Sync import keeps them
    (`original.hints`, bindery.engines.gitsync.page_fields); those of the body it replaces go."""
    kept = {key: value for key, value in (entry.get("original") or {}).items() if key != "hints"}
    if hints:
        kept["hints"] = dict(hints)
    if kept:
        entry["original"] = kept
    else:
        entry.pop("original", None)


def _condition(source: str) -> str:
    """An adaptive-content condition, checked as an expression over the visitor (and the space's and
    page's variables): a typo is a 400 now rather than a page no visitor ever sees."""
    try:
        evaluate_expression(source, {"visitor": UNKNOWN, "space": UNKNOWN, "page": UNKNOWN})
    except ExpressionError as error:
        raise EditError(f"condition: not a valid expression ({error})") from None
    return source


def _apply_fields(entry: dict[str, Any], fields: dict[str, Any]) -> None:
    if fields.get("condition") == "":
        entry.pop("condition", None)
    elif fields.get("condition") is not None:
        entry["condition"] = _condition(fields["condition"])
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
    document, meta, hints = _body(change.document, context)
    fields = {**fields_set(change), **meta}
    now = now_iso()
    entry: dict[str, Any] = {"id": page_id, "type": "document", "title": fields.get("title") or DEFAULT_TITLE,
                             "pages": [], "createdAt": now}
    _apply_fields(entry, fields)
    _keep_hints(entry, hints)
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
        document, meta, hints = _body(change.document, context)
        fields.update(meta)
        _keep_hints(entry, hints)
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


def _insert_files(change: InsertFiles, index: int, file_ids: list[str], uploads: Uploads,
                  outcome: Outcome) -> None:
    for number, (upload, file_id) in enumerate(zip(change.files, file_ids, strict=True)):
        read = uploads[(index, number)]
        outcome.tree.value["files"].append({"id": file_id, "name": upload.name,
                                            "contentType": read.content_type})
        outcome.files[file_id] = read.data
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


def apply_batch(base: Tree, changes: list[ContentChange], uploads: Uploads, *,
                load_tree: Callable[[str | None], Tree], load_document: Callable[[str], Any]) -> Outcome:
    """The batch applied to `base` in memory; `uploads` holds the bytes of its files (read_uploads)."""
    page_ids, file_ids, page_refs, file_refs = _ids_for(changes)
    context = Context(base, load_tree, load_document, page_refs, file_refs)
    outcome = Outcome(EditableTree(base.value))
    for index, change in enumerate(changes):
        try:
            if isinstance(change, InsertPage):
                _insert(change, page_ids[index], outcome, context)
            elif isinstance(change, UpdatePage):
                _update(change, outcome, context)
            elif isinstance(change, DeletePage):
                outcome.delete_page(change.page)
            elif isinstance(change, RevertPage):
                revert(change, outcome, context)
            else:
                _insert_files(change, index, file_ids[index], uploads, outcome)
        except EditError as error:
            raise BadRequest(f"changes[{index}].{error}") from None
    live = outcome.tree.page_ids()
    outcome.documents = {page_id: doc for page_id, doc in outcome.documents.items() if page_id in live}
    return outcome
