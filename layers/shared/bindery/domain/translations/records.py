"""Creating, reading, changing, deleting and running translations (ORG/translations, docs/translations.md).

Every member with the read role sees the organization's translations; creating, changing, deleting and
running them takes the create role, and creating one also needs read access to its source space. A run
happens in the background (TranslationRunWorker): creating a translation queues its first run.

Reads: the organization and the caller's membership (one BatchGetItem), then the translation (one
GetItem). A list page is one Query; its count is the organization's `translationCount`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import space_access
from bindery.domain.access.organization import OrgAccess, require_org_role
from bindery.domain.access.roles import Role, at_least
from bindery.platform import clock, queues
from bindery.platform.config import settings
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.platform.messages import TranslationRunMessage
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.requests.translations import CreateTranslation
from bindery.store import Transaction, TransactionConflict
from bindery.store import translations as translation_store
from bindery.store.translations import Translation

NO_TRANSLATION = "No matching translation"
VIEW: Role = "read"
EDIT: Role = "create"


@dataclass(frozen=True)
class TranslationView:
    translation: Translation
    can_edit: bool


def _view(access: OrgAccess, translation: Translation) -> TranslationView:
    return TranslationView(translation, at_least(access.role, EDIT))


def _get(org_id: str, translation_id: str) -> Translation:
    translation = translation_store.get_translation(org_id, translation_id)
    if translation is None:
        raise NotFound(NO_TRANSLATION)
    return translation


def get_translation(caller: Caller, org_id: str, translation_id: str) -> TranslationView:
    access = require_org_role(caller, org_id, VIEW, "read translations")
    return _view(access, _get(org_id, translation_id))


def list_translations(caller: Caller, org_id: str, *,
                      limit: int, page: str | None) -> Listing[TranslationView]:
    access = require_org_role(caller, org_id, VIEW, "read translations")
    scope = f"translations:{org_id}"
    found = translation_store.translations_page(org_id, limit, open_page(scope, page).start)
    items = [_view(access, Translation.from_item(item)) for item in found.items]
    return Listing(items, next_page(scope, found.last_key), access.org.translation_count)


def _queue(translation: Translation) -> None:
    assert translation.job is not None
    message = TranslationRunMessage(organizationId=translation.org_id, translationId=translation.id,
                                    job=translation.job)
    queues.send(settings().required_queue_url("translation_queue_url"), message)


def create_translation(caller: Caller, org_id: str, body: CreateTranslation) -> TranslationView:
    access = require_org_role(caller, org_id, EDIT, "create translations")
    try:
        source = space_access(caller, body.source.space)
    except NotFound:
        raise BadRequest("source.space: no matching space") from None
    if source.node.org_id != org_id:
        raise BadRequest("source.space: no matching space")
    if body.language == body.source.language:
        raise BadRequest("language: must differ from source.language")
    now = clock.now_iso()
    translation = Translation(
        id=new_id(), org_id=org_id, created_at=now, updated_at=now, created_by=caller.user_id,
        source_space=body.source.space, source_language=body.source.language, language=body.language,
        instructions=body.instructions.model_dump() if body.instructions else None, job=new_id())
    try:
        Transaction(translation_store.create_ops(translation)).commit()
    except TransactionConflict:
        raise NotFound("No matching organization") from None
    try:
        _queue(translation)
    except Exception:
        # Nothing would ever run it: take it back rather than leave it pending for good.
        Transaction(translation_store.delete_ops(translation)).commit()
        raise
    return _view(access, translation)


def update_instructions(caller: Caller, org_id: str, translation_id: str,
                        instructions: dict[str, Any]) -> TranslationView:
    access = require_org_role(caller, org_id, EDIT, "update translations")
    translation = _get(org_id, translation_id)
    translation.instructions, translation.updated_at = instructions, clock.now_iso()
    try:
        Transaction(translation_store.instructions_op(translation)).commit()
    except TransactionConflict:
        raise NotFound(NO_TRANSLATION) from None
    return _view(access, translation)


def delete_translation(caller: Caller, org_id: str, translation_id: str) -> None:
    """The translation and its runs' fingerprints; its result space is kept (it is a space like any
    other). Nothing (204 all the same) when it is missing. A run under way finds its job gone."""
    require_org_role(caller, org_id, EDIT, "delete translations")
    translation = translation_store.get_translation(org_id, translation_id)
    if translation is None:
        return
    try:
        Transaction(translation_store.delete_ops(translation)).commit()
    except TransactionConflict:
        return  # deleted by another request meanwhile
    translation_store.delete_objects(translation.id)


def run_translation(caller: Caller, org_id: str, translation_id: str) -> None:
    """Queue a run. Never two at once: a run already queued takes this request in; one running gets
    `rerun`, and queues one more run when it ends (so that what changed meanwhile is translated too)."""
    require_org_role(caller, org_id, EDIT, "run translations")
    for _ in range(3):
        translation = _get(org_id, translation_id)
        if translation.status == "pending" or (translation.status == "running" and translation.rerun):
            return
        try:
            if translation.status == "running":
                assert translation.job is not None
                Transaction(translation_store.rerun_op(translation, translation.job)).commit()
                return
            seen, translation.job = translation.job, new_id()
            queue = translation_store.queue_op(translation, seen, translation.job, clock.now_iso())
            Transaction(queue).commit()
        except TransactionConflict:
            continue  # it moved (a run started or ended, a delete): look again
        try:
            _queue(translation)
        except Exception:
            # A pending translation takes later requests in (above): with no message sent, put it back
            # as it was, so that the next request queues the run.
            Transaction(translation_store.unqueue_op(translation, translation.job, seen)).commit()
            raise
        return
    raise Conflict("The translation changed while this request ran; send it again")
