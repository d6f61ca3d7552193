"""What one run computes and commits (docs/translations.md, "Runs").

The result space mirrors the source's current revision: the same page tree (ids, slugs, order, types,
every field that is not text), files and variables. A page's title, description and document are
translated when its fingerprint (the digest of its type, title, description and document digest) differs
from the one the previous run recorded, or the result has no such page; otherwise the result keeps the
page as it has it (an earlier translation, or an edit made in the result space since). Pages removed or
moved in the source are removed or moved in the result. The whole result is one new revision on the
result space — or none when it would equal the result's current content.

Reads: the source space, its revision and tree; the result space, its revision and tree; the previous
run's fingerprints (one S3 GET); the documents of changed pages only (one BatchGetItem per 100); the
glossary (one Query). Writes: the documents that changed and the tree (commit_revision), the space's
pointer, the run's fingerprints.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.domain.revisions import RevisionMoved, advance_space, commit_revision
from bindery.engines.content.markdown import document_to_markdown
from bindery.engines.content.positions import between
from bindery.engines.translation import backends, segments
from bindery.engines.translation.errors import TranslationFailed
from bindery.engines.translation.languages import english_name
from bindery.engines.translation.markup import Protect, no_terms
from bindery.platform import clock
from bindery.platform.config import settings
from bindery.platform.errors import NotFound
from bindery.platform.ids import new_id
from bindery.store import Transaction, TransactionConflict, blobs
from bindery.store import glossary as glossary_store
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from bindery.store import translations as translation_store
from bindery.store import tree as tree_store
from bindery.store.spaces import Space
from bindery.store.translations import Translation

Entry = Mapping[str, Any]
DROPPED = ("pages", "git")  # children are rebuilt; Git Sync metadata describes the source's repository
TITLE_MAX = 50


class Superseded(Exception):
    """The run's job was replaced (run again, deleted) while it ran: it writes nothing more."""


@dataclass
class RunResult:
    result_space: str
    source_revision: str
    revision: str | None  # the new revision of the result space; None when nothing changed
    state: dict[str, Any]
    words: int = 0
    pages: list[str] = field(default_factory=list)  # the pages translated by this run


def fingerprint(entry: Entry, document_key: str = "documentId") -> str:
    return blobs.digest_of({name: entry.get(name) for name in ("type", "title", "description", document_key)})


def _walk(entries: list[Entry]) -> Iterator[Entry]:
    for entry in entries:
        yield entry
        yield from _walk(list(entry.get("pages") or []))


def _title(source: Space, language: str) -> str:
    suffix = f" ({english_name(language)})"
    return source.title[: TITLE_MAX - len(suffix)] + suffix


def result_space(translation: Translation, source: Space) -> Space:
    """The translation's result space, created (next to the source, in its collection) on the first run or
    when the previous one was deleted; `translation.result_space` names it after this."""
    if translation.result_space:
        found = space_store.get_space(translation.result_space)
        if found is not None and found.deleted_at is None:
            return found
    now = clock.now_iso()
    space = Space(id=new_id(), org_id=translation.org_id, created_at=now, updated_at=now,
                  position=between(tree_store.last_child_position(translation.org_id, source.parent), None),
                  parent=source.parent, ancestors=list(source.ancestors), default_level="inherit",
                  title=_title(source, translation.language), emoji=source.emoji,
                  language=translation.language, revision=new_id())
    try:
        Transaction([*space_store.create_space_ops(space),
                     translation_store.result_space_op(translation, space.id)]).commit()
    except TransactionConflict as conflict:
        if conflict.failed("translation"):
            raise Superseded from None
        raise TranslationFailed("SOURCE_MOVED", "The source space's collection moved or was deleted while "
                                "the result space was created; run the translation again") from None
    translation.result_space, translation.state_object = space.id, None
    return space


def glossary_terms(org_id: str, source: str, target: str) -> dict[str, str]:
    return {entry.translations[source]: entry.translations[target]
            for entry in glossary_store.all_entries(org_id)
            if source in entry.translations and target in entry.translations}


def _instructions_text(document: Mapping[str, Any] | None) -> str:
    """The instructions as the Markdown the content engine writes (lists, emphasis and links kept)."""
    return document_to_markdown(document).strip() if document else ""


@dataclass
class _Plan:
    pages: dict[str, segments.PageWork]
    contents: dict[str, segments.PageWork]
    fingerprints: dict[str, str]
    content_fingerprints: dict[str, str]


def _plan(source: Space, tree: Any, previous: Any, state: Mapping[str, Any],
          protect: Protect) -> _Plan:
    old_pages: Mapping[str, str] = state.get("pages") or {}
    old_contents: Mapping[str, str] = state.get("contents") or {}
    fingerprints = {entry["id"]: fingerprint(entry) for entry in _walk(tree.pages)}
    content_fingerprints = {entry["id"]: fingerprint(entry, "document") for entry in tree.reusable_contents}
    changed = [entry for entry in _walk(tree.pages)
               if old_pages.get(entry["id"]) != fingerprints[entry["id"]]
               or previous.page(entry["id"]) is None]
    changed_contents = [entry for entry in tree.reusable_contents
                        if old_contents.get(entry["id"]) != content_fingerprints[entry["id"]]
                        or previous.reusable_content(entry["id"]) is None]
    digests = [entry["documentId"] for entry in changed if entry.get("documentId")]
    digests += [entry["document"] for entry in changed_contents if entry.get("document")]
    documents = revision_store.documents(source.id, digests) if digests else {}
    return _Plan(
        {entry["id"]: segments.page_work(entry, documents.get(entry.get("documentId", "")), protect)
         for entry in changed},
        {entry["id"]: segments.page_work(entry, documents.get(entry.get("document", "")), protect)
         for entry in changed_contents},
        fingerprints, content_fingerprints)


def _own(entry: Entry) -> dict[str, Any]:
    return {name: copy.deepcopy(value) for name, value in entry.items() if name not in DROPPED}


def _pages(entries: list[Entry], plan: _Plan, previous: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for entry in entries:
        work = plan.pages.get(entry["id"])
        if work is not None:
            page = {name: value for name, value in work.entry.items() if name not in DROPPED}
            page.pop("documentId", None)  # filled by commit_revision from the translated document
        else:
            kept = previous.page(entry["id"]).entry
            page = _own(entry)
            for name in ("title", "description", "documentId"):
                page.pop(name, None)
                if name in kept:
                    page[name] = kept[name]
        if entry.get("pages"):
            page["pages"] = _pages(list(entry["pages"]), plan, previous)
        out.append(page)
    return out


def _contents(tree: Any, plan: _Plan, previous: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for entry in tree.reusable_contents:
        work = plan.contents.get(entry["id"])
        content = _own(entry)
        if work is not None:
            content["title"] = work.entry.get("title", content.get("title"))
            content.pop("document", None)
        else:
            kept = previous.reusable_content(entry["id"])
            content["title"], content["document"] = kept.get("title"), kept.get("document")
        out.append({name: value for name, value in content.items() if value is not None})
    return out


def _commit(result: Space, source_id: str, tree: Any, plan: _Plan) -> str | None:
    """Commit the result on the result space (rebuilt on a newer result revision if the space moved
    meanwhile); the new revision's id, or None when the result equals the space's content."""
    for _ in range(3):
        revision = revision_store.get_revision(result.id, result.revision)
        if revision is None:
            raise NotFound("the result space's revision is missing")
        previous = revision_store.load_tree(revision)
        value = {"pages": _pages(tree.pages, plan, previous), "files": [_own(f) for f in tree.files],
                 "reusableContents": _contents(tree, plan, previous), "variables": dict(tree.variables)}
        documents = {pid: work.document for pid, work in plan.pages.items() if work.document is not None}
        contents = {cid: work.document for cid, work in plan.contents.items() if work.document is not None}
        current = {"pages": previous.pages, "files": previous.files,
                   "reusableContents": previous.reusable_contents, "variables": dict(previous.variables)}
        if not documents and not contents and value == current:
            return None
        have = {entry.get("digest") for entry in previous.files}
        missing = [entry["digest"] for entry in tree.files if entry.get("digest") not in have]
        if missing:
            blobs.copy_files(source_id, result.id, missing)
        new = commit_revision(result.id, [result.revision], value, documents, reusable_documents=contents)
        try:
            advance_space(result, result.revision, new)
        except RevisionMoved:
            result = space_store.get_space(result.id) or result
            continue
        return new
    raise TranslationFailed("RESULT_BUSY", "The result space kept changing while the run committed; run the "
                            "translation again")


def run(translation: Translation) -> RunResult:
    conf = settings()
    backend = backends.configured_backend(conf)  # first: with none, nothing is created or read
    source = space_store.get_space(translation.source_space)
    if source is None or source.deleted_at is not None:
        raise TranslationFailed("SOURCE_MISSING", "The source space no longer exists")
    revision = revision_store.get_revision(source.id, source.revision)
    if revision is None:
        raise NotFound("the source space's revision is missing")
    tree = revision_store.load_tree(revision)
    result = result_space(translation, source)
    state = translation_store.get_state(translation.state_object) if translation.state_object else None
    state = state or {}
    previous_revision = revision_store.get_revision(result.id, result.revision)
    if previous_revision is None:
        raise NotFound("the result space's revision is missing")
    previous = revision_store.load_tree(previous_revision)
    glossary = glossary_terms(translation.org_id, translation.source_language, translation.language)
    protect = no_terms if backend.native_glossary else segments.protect_terms(glossary)
    plan = _plan(source, tree, previous, state, protect)
    work = [*plan.pages.values(), *plan.contents.values()]
    unique = {segment.text: segment for item in work for segment in item.segments}
    done = backends.translate_all(backend, list(unique), translation.source_language, translation.language,
                                  instructions=_instructions_text(translation.instructions),
                                  glossary=glossary, max_chars=conf.translation_batch_chars)
    for item in work:
        for segment in item.segments:
            segment.apply(done[segment.text])
    new_revision = _commit(result, source.id, tree, plan)
    translated = sorted(set(state.get("translated") or []) | set(plan.pages))
    return RunResult(result_space=result.id, source_revision=source.revision, revision=new_revision,
                     state={"space": result.id, "pages": plan.fingerprints,
                            "contents": plan.content_fingerprints, "translated": translated},
                     words=sum(segment.words for segment in unique.values()), pages=sorted(plan.pages))
