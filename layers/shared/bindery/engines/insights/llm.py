"""The optional LLM extractor (docs/conversations.md, "Extraction"): off unless
`BINDERY_INSIGHTS_EXTRACTOR=openai`, it asks the OpenAI-compatible chat completions endpoint that
translations use (same `BINDERY_TRANSLATION_*` settings, same client and its bounds and retries) for the
user's issues instead of the built-in extractor.

It never falls back: configured but failing (unreachable, a refused key, an answer that is not the
protocol's), it raises ExtractionFailed and the worker reports the failure; it does not pass the built-in
extractor's output off as the model's."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from bindery.engines.insights.model import SUMMARY_MAX, TITLE_MAX, ExtractedIssue, Message, shorten
from bindery.platform.config import Settings

MAX_ISSUES = 5
# What is sent of a conversation: the model needs the problem, not every pasted log line.
MAX_TEXT = 12_000
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")

PROMPT = "\n".join([
    "You read one customer support conversation and list the problems the user raised.",
    'The user sends a JSON object {"subject": ..., "messages": [{"role": ..., "text": ...}]}. Roles are '
    '"user" (the customer), "assistant" (a bot) and "team-member" (support staff): only the user raises '
    "problems; the others are context.",
    'Answer with only a JSON object {"issues": [{"title": ..., "summary": ...}]}: one entry per distinct '
    f"problem or question of the user, at most {MAX_ISSUES}; a title of at most {TITLE_MAX} characters and a "
    f"summary of at most {SUMMARY_MAX} characters, in the user's language. A conversation without a problem "
    '(greetings, thanks) has {"issues": []}.',
])


class ExtractionFailed(Exception):
    """The configured extractor could not extract (`code` as translations name backend failures)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


EXTRACTORS = ("", "builtin", "openai")


def enabled(conf: Settings) -> bool:
    """Whether the LLM extractor replaces the built-in one (an unknown setting is an error, not a default)."""
    if conf.insights_extractor not in EXTRACTORS:
        raise ExtractionFailed("BACKEND_NOT_CONFIGURED", f"BINDERY_INSIGHTS_EXTRACTOR="
                               f"{conf.insights_extractor!r} is not one of builtin, openai")
    return conf.insights_extractor == "openai"


def _payload(subject: str | None, messages: Sequence[Message]) -> str:
    budget = MAX_TEXT
    parts: list[dict[str, str]] = []
    for message in messages:
        if budget <= 0:
            break
        parts.append({"role": message.role, "text": message.text[:budget]})
        budget -= len(message.text)
    return json.dumps({"subject": subject or "", "messages": parts}, ensure_ascii=False)


def parse_issues(content: str) -> list[ExtractedIssue]:
    """The issues of the model's answer; ExtractionFailed when it is not the protocol's."""
    try:
        value: Any = json.loads(_FENCE.sub("", content.strip()))
    except (ValueError, RecursionError):  # a conversation can steer the answer: nested past the stack too
        raise ExtractionFailed("BACKEND_RESPONSE", "the model's answer is not JSON") from None
    found = value.get("issues") if isinstance(value, dict) else None
    if not isinstance(found, list):
        raise ExtractionFailed("BACKEND_RESPONSE", 'the model did not answer {"issues": [...]}')
    issues: list[ExtractedIssue] = []
    for item in found[:MAX_ISSUES]:
        title = item.get("title") if isinstance(item, dict) else None
        summary = item.get("summary") if isinstance(item, dict) else None
        if not isinstance(title, str) or not title.strip() or not isinstance(summary, str):
            raise ExtractionFailed("BACKEND_RESPONSE",
                                   "the model answered an issue without a title or summary")
        issues.append(ExtractedIssue(title=shorten(" ".join(title.split()), TITLE_MAX),
                                     summary=shorten(" ".join((summary or title).split()), SUMMARY_MAX)))
    return issues


def extract_with_model(conf: Settings, *, subject: str | None,
                       messages: Sequence[Message]) -> list[ExtractedIssue]:
    """The issues the configured chat completions endpoint finds in the conversation."""
    from bindery.engines.translation.backends import configured_backend
    from bindery.engines.translation.backends.http import post_json
    from bindery.engines.translation.backends.openai import OpenAIChat, content_of
    from bindery.engines.translation.errors import TranslationFailed

    try:
        backend = configured_backend(conf)
        if not isinstance(backend, OpenAIChat):
            raise ExtractionFailed("BACKEND_NOT_CONFIGURED", "BINDERY_INSIGHTS_EXTRACTOR=openai needs "
                                   "BINDERY_TRANSLATION_BACKEND=openai (an OpenAI-compatible endpoint)")
        body = {"model": backend.model, "temperature": 0, "messages": [
            {"role": "system", "content": PROMPT},
            {"role": "user", "content": _payload(subject, messages)},
        ]}
        headers = {"Authorization": f"Bearer {backend.api_key}"} if backend.api_key else {}
        answer = post_json(backend.name, backend.url.rstrip("/") + "/chat/completions", body, headers,
                           backend.policy)
        return parse_issues(content_of(answer))
    except TranslationFailed as failure:
        raise ExtractionFailed(failure.code, failure.message) from None
