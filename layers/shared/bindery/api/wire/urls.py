"""Where resources live, in the API and in the app.

The API's own base URL is configured (`BINDERY_PUBLIC_URL`, set by the local runner or a custom domain)
or else taken from the request API Gateway received: a function cannot know its API's URL from the
template without a circular dependency between the API and its functions.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from bindery.platform import stack_urls
from bindery.platform.config import settings

_request_base: ContextVar[str | None] = ContextVar("bindery_request_base", default=None)


def remember_request_base(event: dict[str, Any]) -> None:
    """Called once per request by the resolver's middleware."""
    context = event.get("requestContext") or {}
    domain, stage = context.get("domainName"), context.get("stage")
    _request_base.set(f"https://{domain}/{stage}" if domain and stage else None)


def api_base() -> str:
    return (settings().public_url or _request_base.get() or stack_urls.api_base()).rstrip("/")


def api_url(path: str) -> str:
    return api_base() + path


def app_url(path: str) -> str:
    return stack_urls.app_base() + path
