"""Why a translation run failed, with a code the translation's `lastRunError` shows (docs/translations.md)."""

from __future__ import annotations


class TranslationFailed(Exception):
    """A run that cannot succeed as things are (no backend, a refused key, a quota, a backend that stays
    down, an answer that lost the markup). The run ends with the error recorded; the previous result stays."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class MarkupLost(TranslationFailed):
    """A translated segment whose placeholders do not match the ones sent."""

    def __init__(self, message: str) -> None:
        super().__init__("MARKUP_LOST", message)
