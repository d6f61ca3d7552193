"""DeepL's API (https://developers.deepl.com/docs/api-reference/translate): `POST /v2/translate` with
`Authorization: DeepL-Auth-Key …`, `text` (a list), `source_lang`, `target_lang` and `tag_handling: xml`
(the markup's tags are kept, their content translated); the answer's `translations[].text`, in order.
`BINDERY_TRANSLATION_URL` is `https://api.deepl.com` or `https://api-free.deepl.com`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bindery.engines.translation.backends.http import HttpPolicy, post_json
from bindery.engines.translation.errors import TranslationFailed

# DeepL's codes for the languages it has; the others (yue, hi, th, vi, ms, he, hr) it does not translate.
SOURCE = {"en": "EN", "pt": "PT", "pt-br": "PT", "no": "NB", "zh": "ZH"}
TARGET = {"en": "EN-US", "pt": "PT-PT", "pt-br": "PT-BR", "no": "NB", "zh": "ZH-HANS"}
SUPPORTED = frozenset({"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "ko", "ar", "nl", "pl",
                       "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "id", "uk", "sk", "bg", "lt",
                       "lv", "et", "sl"})


def _code(language: str, table: Mapping[str, str]) -> str:
    if language not in SUPPORTED:
        raise TranslationFailed("UNSUPPORTED_LANGUAGE", f"DeepL does not translate {language!r}")
    return table.get(language, language.upper())


@dataclass(frozen=True)
class DeepL:
    url: str
    api_key: str
    policy: HttpPolicy
    name: str = "DeepL"
    native_glossary: bool = False
    max_items: int = 50  # DeepL's limit of texts per request

    def translate(self, texts: list[str], source: str, target: str, *, instructions: str,
                  glossary: Mapping[str, str]) -> list[str]:
        body = {"text": texts, "source_lang": _code(source, SOURCE), "target_lang": _code(target, TARGET),
                "tag_handling": "xml", "preserve_formatting": True}
        headers = {"Authorization": f"DeepL-Auth-Key {self.api_key}"}
        answer = post_json(self.name, self.url.rstrip("/") + "/v2/translate", body, headers, self.policy)
        found = answer.get("translations") if isinstance(answer, dict) else None
        if not isinstance(found, list) or len(found) != len(texts):
            raise TranslationFailed("BACKEND_RESPONSE", "DeepL did not answer one translation per text")
        out: list[str] = []
        for item in found:
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise TranslationFailed("BACKEND_RESPONSE", "DeepL answered a translation without text")
            out.append(item["text"])
        return out
