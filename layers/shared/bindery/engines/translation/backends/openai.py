"""An OpenAI-compatible chat completions endpoint (OpenAI, and the self-hosted servers that speak its
protocol: vLLM, llama.cpp's server, Ollama, LiteLLM...): `POST {url}/chat/completions` with
`Authorization: Bearer …`, `model` and `messages`; the answer's `choices[0].message.content`.

The segments go as one JSON object `{"segments": [...]}`; the model is told to answer
`{"translations": [...]}`, one per segment, keeping the markup's tags. The translation's `instructions`
and the organization's glossary go into the system prompt."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.engines.translation.backends.http import HttpPolicy, post_json
from bindery.engines.translation.errors import TranslationFailed
from bindery.engines.translation.languages import english_name

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


def prompt(source: str, target: str, instructions: str, glossary: Mapping[str, str]) -> str:
    lines = [
        f"You translate software documentation from {english_name(source)} to {english_name(target)}.",
        'The user sends a JSON object {"segments": [...]}. Answer with only a JSON object '
        '{"translations": [...]}: one translation per segment, in the same order.',
        "Segments contain XML-like tags: <gN>...</gN> around text (translate the text inside, keep the "
        "tags) and <xN/> placeholders (keep them as they are). Every tag of a segment must appear exactly "
        "once in its translation, properly nested. Keep XML escapes such as &amp; and &lt;.",
        "Translate faithfully; keep the tone, the formatting and the leading and trailing spaces; add no "
        "explanations.",
    ]
    if glossary:
        lines.append("Always translate these terms this way:")
        lines += [f"- {term} → {translation}" for term, translation in sorted(glossary.items())]
    if instructions.strip():
        lines.append("Instructions from the documentation team:\n" + instructions.strip())
    return "\n".join(lines)


def content_of(answer: Any) -> str:
    """The message content of a chat completions answer (BACKEND_RESPONSE when there is none)."""
    try:
        content = answer["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        content = None
    if not isinstance(content, str):
        raise TranslationFailed("BACKEND_RESPONSE", "the chat endpoint answered no message content")
    return content


def parse_translations(content: str, count: int) -> list[str]:
    try:
        value = json.loads(_FENCE.sub("", content.strip()))
    except (ValueError, RecursionError):  # nested past the parser's stack: not the protocol's either
        raise TranslationFailed("BACKEND_RESPONSE", "the model's answer is not JSON") from None
    found = value.get("translations") if isinstance(value, dict) else value
    if not isinstance(found, list) or len(found) != count or not all(isinstance(t, str) for t in found):
        raise TranslationFailed("BACKEND_RESPONSE", f"the model did not answer {count} translations")
    return found


@dataclass(frozen=True)
class OpenAIChat:
    url: str
    api_key: str
    model: str
    policy: HttpPolicy
    name: str = "the chat completions endpoint"
    native_glossary: bool = True
    max_items: int = 40

    def translate(self, texts: list[str], source: str, target: str, *, instructions: str,
                  glossary: Mapping[str, str]) -> list[str]:
        body = {"model": self.model, "temperature": 0, "messages": [
            {"role": "system", "content": prompt(source, target, instructions, glossary)},
            {"role": "user", "content": json.dumps({"segments": texts}, ensure_ascii=False)},
        ]}
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        answer = post_json(self.name, self.url.rstrip("/") + "/chat/completions", body, headers, self.policy)
        return parse_translations(content_of(answer), len(texts))
