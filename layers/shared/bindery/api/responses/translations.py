"""Translations and glossary entries, as the reference spec declares them (Translation, GlossaryEntry).
`lastRunError` is Bindery's: the spec's TranslationStatus has no failure value (docs/translations.md)."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import Location, Timestamp
from bindery.api.responses.content import JSONDocument
from bindery.requests.translations import TranslationLanguage


class TranslationSource(WireModel):
    space: str
    language: TranslationLanguage


class TranslationResult(WireModel):
    space: str
    revision: str


class TranslationStats(WireModel):
    runs: int
    totalWords: int
    totalPages: int
    totalDuration: int
    latestRunDuration: int
    latestPages: int
    latestWords: int


class TranslationPermissions(WireModel):
    view: bool
    edit: bool


class TranslationRunError(WireModel):
    code: str
    message: str
    at: Timestamp


class Translation(WireModel):
    object: Literal["translation"]
    id: str
    status: Literal["pending", "running", "completed"]
    source: TranslationSource
    language: TranslationLanguage
    instructions: JSONDocument
    result: Omitted[TranslationResult] = None
    createdAt: Timestamp
    updatedAt: Timestamp
    stats: TranslationStats
    permissions: TranslationPermissions
    urls: Location
    lastRunError: Omitted[TranslationRunError] = None


class TranslationList(ListPage):
    items: list[Translation]


class GlossaryEntry(WireModel):
    object: Literal["glossary-entry"]
    id: str
    translations: dict[str, str]
    createdAt: Timestamp
    updatedAt: Timestamp
    urls: Location


class GlossaryEntryList(ListPage):
    items: list[GlossaryEntry]
