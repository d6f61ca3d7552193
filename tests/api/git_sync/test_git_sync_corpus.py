"""End to end on a real GitBook repository: the fluentd documentation (tests/corpus) committed to
a bare repository, imported through the API and the worker, read back as a client would."""

from __future__ import annotations

import re
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
from tests.data_paths import FLUENTD_CORPUS
from tests.git_repos import bare_repo

pytestmark = pytest.mark.usefixtures("git_settings")
CORPUS = FLUENTD_CORPUS
ENTRY = re.compile(r"^\s*\* ", re.MULTILINE)  # every SUMMARY entry, linked or not


def _count(entries: list[dict[str, Any]]) -> int:
    return sum(1 + _count(entry.get("pages") or []) for entry in entries)


def test_the_fluentd_docs_import_with_one_page_per_summary_entry(
        api: ApiClient, deliver_queued: Callable[[], int], tmp_path: Path) -> None:
    files = {str(path.relative_to(CORPUS)): path.read_bytes() for path in CORPUS.rglob("*") if path.is_file()}
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "fluentd.git", files),
                 ref="refs/heads/main")
    deliver_queued()
    done = run(api, ada, path)
    assert done["status"] == "succeeded", done["error"]
    tree = pages(api, ada, space["id"])
    assert _count(tree) == len(ENTRY.findall((CORPUS / "SUMMARY.md").read_text()))
    assert tree[0]["title"] == "Introduction"
    install = api.get(f"/spaces/{space['id']}/content/path/installation/install-by-rpm", token=ada.token)
    assert install.status == 200
    assert install.json()["title"] == "Install by RPM Package (Red Hat Linux)"
    assert api.get(f"/spaces/{space['id']}/content/files", token=ada.token).json()["count"] > 0
