"""A real HTTP server on loopback speaking the three translator protocols Bindery's backends use, as each
service documents them (bindery.engines.translation.backends; docs/translations.md):

- OpenAI chat completions: `POST /v1/chat/completions`, `Authorization: Bearer <key>`, `{model, messages}`
  → `{choices: [{message: {role, content}}]}`; a wrong key is 401 `{"error": {...}}`.
- DeepL: `POST /v2/translate`, `Authorization: DeepL-Auth-Key <key>`, `{text: [...], source_lang,
  target_lang, tag_handling}` → `{translations: [{detected_source_language, text}]}`; a wrong key is 403,
  an exhausted quota 456.
- LibreTranslate: `POST /translate`, `{q: [...], source, target, format, api_key}` →
  `{translatedText: [...]}`; a wrong key is 403 `{"error": ...}`.

The chat endpoint also answers the insights extractor (bindery.engines.insights.llm): when the user's content
is a conversation `{"subject", "messages"}`, it answers `{"issues": [...]}` with one issue per user message,
its words reversed (`bad_issues` scripts an answer that is not the protocol's). `POST /v1/embeddings`
(`{model, input: str | [str]}` → `{object: "list", data: [{object: "embedding", index, embedding}], model,
usage}`) answers the insights' embeddings (bindery.engines.insights.embedding): each text's vector is its
counts of the letters a to z (`letter_counts`), so tests can tell which text it came from.

Its "translation" is deterministic and visible: every word of the text between tags is reversed
(`hello <g1>world</g1>` → `olleh <g1>dlrow</g1>`), tags and XML escapes kept, so tests can tell which
text went through it and which did not. Tests script failures (`fail_next`) and read every request.
"""

from __future__ import annotations

import html
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.loopback_server import serving

KEY = "test-key"
_TAG = re.compile(r"(<[^>]*>)")
_WORD = re.compile(r"[^\W\d_]+")


def reverse_words(text: str) -> str:
    """The server's translation of plain text: each word reversed."""
    return _WORD.sub(lambda match: match.group(0)[::-1], text)


def translate_markup(text: str) -> str:
    """The server's translation of tagged text: words between tags reversed, tags and escapes kept."""
    parts = _TAG.split(text)
    return "".join(part if part.startswith("<")
                   else html.escape(reverse_words(html.unescape(part)), quote=False) for part in parts)


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def texts(self) -> list[str]:
        """The segments this request asked to translate, whatever the protocol."""
        if "text" in self.body:
            return list(self.body["text"])
        if "q" in self.body:
            return list(self.body["q"])
        return list(json.loads(self.body["messages"][-1]["content"])["segments"])


@dataclass
class TranslatorServer:
    base: str
    requests: list[Request] = field(default_factory=list)
    fail_next: list[int] = field(default_factory=list)  # statuses to answer first, in order
    retry_after: str | None = None  # sent with scripted 429s
    drop_tags: bool = False  # answer without the tags (a translator that lost the markup)
    bad_issues: bool = False  # answer the insights extractor with issues lacking a title
    bad_embeddings: bool = False  # answer /embeddings with one vector too few
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, kind: str) -> str:
        return f"{self.base}/v1" if kind == "openai" else self.base

    @property
    def texts(self) -> list[str]:
        return [text for request in self.requests for text in request.texts]

    def answer(self, text: str) -> str:
        translated = translate_markup(text)
        return _TAG.sub("", translated) if self.drop_tags else translated


def _openai(server: TranslatorServer, request: Request) -> tuple[int, Any]:
    if request.headers.get("authorization") != f"Bearer {KEY}":
        return 401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
    if not request.body.get("model") or request.body["messages"][0]["role"] != "system":
        return 400, {"error": {"message": "model and messages are required"}}
    asked = json.loads(request.body["messages"][-1]["content"])
    if "messages" in asked:
        issues = [{"summary": reverse_words(part["text"])} if server.bad_issues else
                  {"title": reverse_words(part["text"][:40]), "summary": reverse_words(part["text"])}
                  for part in asked["messages"] if part["role"] == "user"]
        content = json.dumps({"issues": issues}, ensure_ascii=False)
    else:
        translations = [server.answer(text) for text in request.texts]
        content = json.dumps({"translations": translations}, ensure_ascii=False)
    return 200, {"id": "chatcmpl-1", "object": "chat.completion", "model": request.body["model"],
                 "choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": content}}]}


def letter_counts(text: str) -> list[float]:
    """The server's embedding of a text: how often each letter a to z occurs in it."""
    lowered = text.lower()
    return [float(lowered.count(letter)) for letter in "abcdefghijklmnopqrstuvwxyz"]


def _embeddings(server: TranslatorServer, request: Request) -> tuple[int, Any]:
    if request.headers.get("authorization") != f"Bearer {KEY}":
        return 401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
    texts = request.body.get("input")
    texts = [texts] if isinstance(texts, str) else texts
    if not request.body.get("model") or not isinstance(texts, list) or not texts:
        return 400, {"error": {"message": "model and input are required"}}
    data = [{"object": "embedding", "index": index, "embedding": letter_counts(text)}
            for index, text in enumerate(texts)]
    return 200, {"object": "list", "data": data[:-1] if server.bad_embeddings else data,
                 "model": request.body["model"], "usage": {"prompt_tokens": 0, "total_tokens": 0}}


def _deepl(server: TranslatorServer, request: Request) -> tuple[int, Any]:
    if request.headers.get("authorization") != f"DeepL-Auth-Key {KEY}":
        return 403, {"message": "Wrong endpoint or authentication key"}
    body = request.body
    if not isinstance(body.get("text"), list) or not body.get("target_lang") or len(body["text"]) > 50:
        return 400, {"message": "Bad request: text (at most 50) and target_lang are required"}
    return 200, {"translations": [{"detected_source_language": body.get("source_lang", "EN"),
                                   "text": server.answer(text)} for text in body["text"]]}


def _libretranslate(server: TranslatorServer, request: Request) -> tuple[int, Any]:
    body = request.body
    if body.get("api_key") != KEY:
        return 403, {"error": "Invalid API key"}
    if not body.get("q") or not body.get("source") or not body.get("target"):
        return 400, {"error": "Invalid request: q, source and target are required"}
    if isinstance(body["q"], list):
        return 200, {"translatedText": [server.answer(text) for text in body["q"]]}
    return 200, {"translatedText": server.answer(body["q"])}


ROUTES = {"/v1/chat/completions": _openai, "/v1/embeddings": _embeddings, "/v2/translate": _deepl,
          "/translate": _libretranslate}


def _handler(server: TranslatorServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
            return

        def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            route = ROUTES.get(self.path)
            if route is None:
                self._send(404, {"error": "not found"})
                return
            with server.lock:
                server.requests.append(request)
                failure = server.fail_next.pop(0) if server.fail_next else None
            if failure is not None:
                extra = {"Retry-After": server.retry_after} if failure == 429 and server.retry_after else {}
                self._send(failure, {"error": f"scripted {failure}"}, extra)
                return
            status, answer = route(server, request)
            self._send(status, answer)

    return Handler


@contextmanager
def translator_server() -> Iterator[TranslatorServer]:
    server = TranslatorServer("")
    with serving(_handler(server)) as base:
        server.base = base
        yield server
