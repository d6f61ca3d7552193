"""Where resources live, in the API and in the app."""

from __future__ import annotations

from bindery.config import settings


def api_url(path: str) -> str:
    return settings().public_url.rstrip("/") + path


def app_url(path: str) -> str:
    return settings().app_url.rstrip("/") + path
