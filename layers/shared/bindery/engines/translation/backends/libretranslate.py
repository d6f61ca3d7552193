"""LibreTranslate's API (https://libretranslate.com/docs): `POST /translate` with `q` (a list of texts),
`source`, `target`, `format: html` (so that the markup's tags are kept) and `api_key`; the answer's
`translatedText` is the list of translations, in order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bindery.engines.translation.backends.http import HttpPolicy, post_json
from bindery.engines.translation.errors import TranslationFailed

# Bindery's language codes LibreTranslate (Argos) names otherwise.
CODES = {"pt-br": "pb", "no": "nb", "zh": "zh"}


def code(language: str) -> str:
    return CODES.get(language, language)


@dataclass(frozen=True)
class LibreTranslate:
    url: str
    api_key: str
    policy: HttpPolicy
    name: str = "LibreTranslate"
    native_glossary: bool = False
    max_items: int = 50

    def translate(self, texts: list[str], source: str, target: str, *, instructions: str,
                  glossary: Mapping[str, str]) -> list[str]:
        body: dict[str, object] = {"q": texts, "source": code(source), "target": code(target),
                                   "format": "html"}
        if self.api_key:
            body["api_key"] = self.api_key
        answer = post_json(self.name, self.url.rstrip("/") + "/translate", body, {}, self.policy)
        translated = answer.get("translatedText") if isinstance(answer, dict) else None
        if not isinstance(translated, list) or len(translated) != len(texts) \
                or not all(isinstance(text, str) for text in translated):
            raise TranslationFailed("BACKEND_RESPONSE",
                                    f"{self.name} did not answer one translatedText per q")
        return translated
