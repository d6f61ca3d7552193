"""Translator backends, configured per deployment (never stored in items; docs/translations.md):

    BINDERY_TRANSLATION_BACKEND   openai | deepl | libretranslate (unset: runs fail, BACKEND_NOT_CONFIGURED)
    BINDERY_TRANSLATION_URL       the service's base URL
    BINDERY_TRANSLATION_API_KEY   its key (or BINDERY_TRANSLATION_API_KEY_SECRET: a Secrets Manager secret)
    BINDERY_TRANSLATION_MODEL     the model (openai)

`translate_all` sends unique texts in batches of whole segments (bounded in count and characters) and
returns each text's translation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from bindery.engines.translation.backends.deepl import DeepL
from bindery.engines.translation.backends.http import HttpPolicy
from bindery.engines.translation.backends.libretranslate import LibreTranslate
from bindery.engines.translation.backends.openai import OpenAIChat
from bindery.engines.translation.errors import TranslationFailed
from bindery.platform.config import Settings

NAMES = ("openai", "deepl", "libretranslate")


class Backend(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def native_glossary(self) -> bool:
        """Whether the glossary goes to the backend (a prompt), rather than as placeholders in the text."""

    @property
    def max_items(self) -> int: ...

    def translate(self, texts: list[str], source: str, target: str, *, instructions: str,
                  glossary: Mapping[str, str]) -> list[str]: ...


def _api_key(conf: Settings) -> str:
    if conf.translation_api_key:
        return conf.translation_api_key
    if conf.translation_api_key_secret:
        # Fetched at run time (cached five minutes), so that the key is in no environment variable.
        from aws_lambda_powertools.utilities import parameters

        return str(parameters.get_secret(conf.translation_api_key_secret, max_age=300))
    return ""


def configured_backend(conf: Settings) -> Backend:
    kind = conf.translation_backend
    if not kind:
        raise TranslationFailed("BACKEND_NOT_CONFIGURED", "No translation backend is configured: set "
                                "BINDERY_TRANSLATION_BACKEND (openai, deepl or libretranslate) and "
                                "BINDERY_TRANSLATION_URL (docs/translations.md)")
    if kind not in NAMES:
        raise TranslationFailed("BACKEND_NOT_CONFIGURED", f"BINDERY_TRANSLATION_BACKEND={kind!r} is not one "
                                f"of {', '.join(NAMES)}")
    if not conf.translation_url:
        raise TranslationFailed("BACKEND_NOT_CONFIGURED", "BINDERY_TRANSLATION_URL is not set")
    policy = HttpPolicy(timeout=conf.translation_timeout, retries=conf.translation_retries,
                        backoff=conf.translation_backoff,
                        max_request_bytes=conf.translation_max_request_bytes)
    key = _api_key(conf)
    if kind == "openai":
        if not conf.translation_model:
            raise TranslationFailed("BACKEND_NOT_CONFIGURED", "BINDERY_TRANSLATION_MODEL is not set")
        return OpenAIChat(conf.translation_url, key, conf.translation_model, policy)
    if kind == "deepl":
        return DeepL(conf.translation_url, key, policy)
    return LibreTranslate(conf.translation_url, key, policy)


def batches(texts: Sequence[str], max_items: int, max_chars: int) -> list[list[str]]:
    """Whole texts in order, at most `max_items` and (unless one text is longer) `max_chars` per batch."""
    out: list[list[str]] = []
    current: list[str] = []
    size = 0
    for text in texts:
        if current and (len(current) >= max_items or size + len(text) > max_chars):
            out.append(current)
            current, size = [], 0
        current.append(text)
        size += len(text)
    if current:
        out.append(current)
    return out


def translate_all(backend: Backend, texts: Sequence[str], source: str, target: str, *, instructions: str,
                  glossary: Mapping[str, str], max_chars: int) -> dict[str, str]:
    """Each distinct text's translation (each is sent once)."""
    unique = list(dict.fromkeys(texts))
    done: dict[str, str] = {}
    for batch in batches(unique, backend.max_items, max_chars):
        translated = backend.translate(batch, source, target, instructions=instructions,
                                       glossary=glossary if backend.native_glossary else {})
        done.update(zip(batch, translated, strict=True))
    return done
