"""Translations and glossary entries on the wire (models in bindery.api.responses.translations)."""

from __future__ import annotations

from typing import Any

from bindery.api.responses.translations import GlossaryEntry, Translation
from bindery.api.wire.urls import api_url
from bindery.store.glossary import GlossaryEntry as StoredEntry
from bindery.store.translations import Translation as StoredTranslation

EMPTY_DOCUMENT = {"object": "document", "data": {}, "nodes": []}


def translation_to_wire(translation: StoredTranslation, *, can_edit: bool) -> Translation:
    body: dict[str, Any] = {
        "object": "translation", "id": translation.id, "status": translation.status,
        "source": {"space": translation.source_space, "language": translation.source_language},
        "language": translation.language,
        "instructions": translation.instructions or EMPTY_DOCUMENT,
        "createdAt": translation.created_at, "updatedAt": translation.updated_at,
        "stats": translation.stats, "permissions": {"view": True, "edit": can_edit},
        "urls": {"location": api_url(f"/orgs/{translation.org_id}/translations/{translation.id}")},
        "lastRunError": translation.last_error,
    }
    if translation.result_space and translation.result_revision:
        body["result"] = {"space": translation.result_space, "revision": translation.result_revision}
    return Translation.model_validate(body)


def entry_to_wire(entry: StoredEntry) -> GlossaryEntry:
    return GlossaryEntry.model_validate({
        "object": "glossary-entry", "id": entry.id, "translations": entry.translations,
        "createdAt": entry.created_at, "updatedAt": entry.updated_at,
        "urls": {"location": api_url(f"/orgs/{entry.org_id}/translations-glossary/{entry.id}")}})
