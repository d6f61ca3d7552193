"""JSON over HTTP to a translator, with the bounds every backend shares: a timeout per request, a size cap
on what is sent, and retries with exponential backoff on 429 and 5xx (honouring `Retry-After`).

Errors become TranslationFailed with a code the translation shows (docs/translations.md): a refused key
BACKEND_AUTH, an exhausted quota BACKEND_QUOTA (DeepL's 456, or 429 after the last retry), a backend down
or failing BACKEND_UNAVAILABLE, anything else it refuses BACKEND_ERROR, an answer that is not the
protocol's BACKEND_RESPONSE.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bindery.engines.translation.errors import TranslationFailed

RETRYABLE = frozenset({429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 30.0


@dataclass(frozen=True)
class HttpPolicy:
    timeout: float
    retries: int  # further attempts after the first
    backoff: float  # seconds before the first retry; doubled each time
    max_request_bytes: int
    sleep: Callable[[float], None] = time.sleep


def _retry_after(error: urllib.error.HTTPError, default: float) -> float:
    header = error.headers.get("Retry-After") if error.headers else None
    try:
        return min(float(header), MAX_RETRY_AFTER) if header else default
    except ValueError:
        return default


def _failure(service: str, status: int, detail: str) -> TranslationFailed:
    if status in (401, 403):
        return TranslationFailed("BACKEND_AUTH", f"{service} refused the API key (HTTP {status}){detail}")
    if status in (429, 456):
        return TranslationFailed("BACKEND_QUOTA",
                                 f"{service} refused for quota or rate (HTTP {status}){detail}")
    if status >= 500:
        return TranslationFailed("BACKEND_UNAVAILABLE", f"{service} failed (HTTP {status}){detail}")
    return TranslationFailed("BACKEND_ERROR", f"{service} refused the request (HTTP {status}){detail}")


def _detail(error: urllib.error.HTTPError) -> str:
    try:
        body = error.read(2000).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    return f": {body[:300]}" if body else ""


def post_json(service: str, url: str, body: Mapping[str, Any], headers: Mapping[str, str],
              policy: HttpPolicy) -> Any:
    """POST `body` as JSON; the decoded JSON answer."""
    if not url.startswith(("https://", "http://")):
        raise TranslationFailed("BACKEND_NOT_CONFIGURED", f"{service}: the URL must be http(s), not {url!r}")
    data = json.dumps(body, ensure_ascii=False).encode()
    if len(data) > policy.max_request_bytes:
        raise TranslationFailed("BACKEND_ERROR", f"a request to {service} would be {len(data)} bytes, over "
                                f"the {policy.max_request_bytes}-byte cap")
    delay = policy.backoff
    for attempt in range(policy.retries + 1):
        request = urllib.request.Request(url, data=data, method="POST", headers={  # noqa: S310 - checked above
            "Content-Type": "application/json", "Accept": "application/json", **headers})
        try:
            with urllib.request.urlopen(request, timeout=policy.timeout) as response:  # noqa: S310 - checked above
                raw = response.read()
        except urllib.error.HTTPError as error:
            if error.code in RETRYABLE and attempt < policy.retries:
                policy.sleep(_retry_after(error, delay))
                delay *= 2
                continue
            raise _failure(service, error.code, _detail(error)) from None
        except (urllib.error.URLError, OSError) as error:
            if attempt < policy.retries:
                policy.sleep(delay)
                delay *= 2
                continue
            reason = getattr(error, "reason", error)
            raise TranslationFailed("BACKEND_UNAVAILABLE", f"{service} could not be reached ({reason})") \
                from None
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            raise TranslationFailed("BACKEND_RESPONSE", f"{service} answered with something that is not "
                                    "JSON") from None
    raise AssertionError("unreachable: the last attempt returns or raises")
