"""Set-up shared by the Git Sync API tests: file:// allowed (as in the local runner), a space with its
admin, and starting runs and following them through the API."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.spaces.test_spaces import new_space
from tests.client import ApiClient, Identity
from tests.settings_environment import changed_environment

SIMPLE = {
    "README.md": b"# Home\n\nWelcome.\n",
    "SUMMARY.md": b"# Summary\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n"
                  b"  * [Install](guide/install.md)\n",
    "guide/README.md": b"# Guide\n\nHow to.\n",
    "guide/install.md": b"# Install\n\nRun it.\n\n![logo](../.gitbook/assets/logo.png)\n",
    ".gitbook/assets/logo.png": b"\x89PNG\r\n\x1a\nlogo-bytes",
}


@pytest.fixture
def git_settings() -> Iterator[dict[str, str]]:
    """BINDERY_GIT_* as the local runner sets them (file:// on); tests may change them further."""
    with changed_environment({"BINDERY_GIT_ALLOW_FILE_URLS": "1", "BINDERY_ALLOW_PRIVATE_HOSTS": None}):
        yield os.environ  # type: ignore[misc]


def run_path(reply: Any) -> str:
    assert reply.status == 204, reply.body
    return str(reply.headers["Location"]).split("/v1", 1)[1]


def start(api: ApiClient, who: Identity, space_id: str, kind: str, **body: Any) -> str:
    """POST …/git/{kind}; the run's API path."""
    return run_path(api.post(f"/spaces/{space_id}/git/{kind}", token=who.token, body=body))


def run(api: ApiClient, who: Identity, path: str) -> dict[str, Any]:
    reply = api.get(path, token=who.token)
    assert reply.status == 200, reply.body
    return dict(reply.json())


def pages(api: ApiClient, who: Identity, space_id: str) -> list[dict[str, Any]]:
    reply = api.get(f"/spaces/{space_id}/content/pages", token=who.token)
    assert reply.status == 200, reply.body
    return list(reply.json()["pages"])


def outline(entries: list[dict[str, Any]]) -> list[tuple[str, str, str | None, Any]]:
    """(type, title, path, children) of every page: what a reader sees of the tree."""
    return [(p["type"], p["title"], p.get("path"), outline(p.get("pages") or [])) for p in entries]


def space_with_admin(api: ApiClient) -> tuple[Identity, dict[str, Any]]:
    ada = api.org_admin()
    return ada, new_space(api, ada)
