"""A repository's hint styles beyond the spec's four (`{% hint style="tip" %}`, as GitBook's older editor
wrote them, `note`, anything else): every read shows the nearest official style, and an export writes
the page back as the repository had it, byte for byte."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.api.git_sync_support import (
    git_settings,  # noqa: F401 - a fixture
    pages,
    run,
    space_with_admin,
    start,
)
from tests.client import ApiClient
from tests.content.test_hint_styles import PAGE, SPEC_STYLES
from tests.git_repos import bare_repo, branch_files

pytestmark = pytest.mark.usefixtures("git_settings")
Deliver = Callable[[], int]
FILES = {"README.md": b"# Welcome\n\nHi.\n", "hints.md": PAGE.encode(),
         "SUMMARY.md": b"# Table of contents\n\n* [Welcome](README.md)\n* [Hints](hints.md)\n"}


def _styles(node: dict[str, Any]) -> list[str]:
    own = [node["data"]["style"]] if node.get("type") == "hint" else []
    return own + [style for child in node.get("nodes", []) for style in _styles(child)]


@pytest.fixture
def imported(api: ApiClient, deliver_queued: Deliver, tmp_path: Path) -> tuple[Any, str, str]:
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "source.git", FILES), ref="main")
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"
    page_id = next(page["id"] for page in pages(api, ada, space["id"]) if page["title"] == "Hints")
    return ada, space["id"], page_id


def test_reads_show_the_nearest_official_styles(api: ApiClient, imported: Any) -> None:
    ada, space_id, page_id = imported
    one = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=ada.token)
    assert one.status == 200, one.body
    assert _styles(one.json()["document"]) == ["success", "info", "info", "warning", "warning"]
    assert set(_styles(one.json()["document"])) <= SPEC_STYLES
    markdown = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=ada.token,
                       query={"format": "markdown"})
    assert markdown.status == 200
    assert '{% hint style="success" %}' in markdown.json()["markdown"]
    revision = api.get(f"/spaces/{space_id}/content", token=ada.token)
    for reply in (one, markdown, revision):
        text = json.dumps(reply.json())
        assert "tip" not in text.replace("A tip.", "")  # the kept styles are no field of the wire
        assert "Shiny" not in text


def test_an_export_writes_the_page_as_the_repository_had_it(
        api: ApiClient, deliver_queued: Deliver, imported: Any, tmp_path: Path) -> None:
    ada, space_id, page_id = imported
    target = tmp_path / "export.git"
    url = bare_repo(target)
    start(api, ada, space_id, "export", url=url, ref="main", commitMessage="Export")
    deliver_queued()
    assert branch_files(target)["hints.md"] == PAGE.encode()
    before = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=ada.token).json()["document"]
    start(api, ada, space_id, "import", url=url, ref="main")
    deliver_queued()
    after = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=ada.token).json()["document"]
    assert after == before
