"""Layout values outside the 0.146.0 enums, as real repositories hold them (GitBook's own docs set
`layout.cover.size: background`): imported as the nearest official value, so every read answers 200 with
a layout the spec allows, and written back by an export exactly as the repository had them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.api.git_sync_support import (
    git_settings,  # noqa: F401 - a fixture
    pages,
    run,
    space_with_admin,
    start,
)
from tests.client import ApiClient
from tests.data_paths import GITBOOK_LAYOUT_CORPUS
from tests.git_repos import bare_repo, branch_files

pytestmark = pytest.mark.usefixtures("git_settings")
Deliver = Callable[[], int]


def _corpus() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in GITBOOK_LAYOUT_CORPUS.iterdir()}


def _front_matter(markdown: bytes) -> dict[str, Any]:
    return dict(yaml.safe_load(markdown.decode().split("---\n")[1]))


WIDE_OPEN = b"""---
layout:
  width: full
  cover:
    size: large
---

# Wide open

Text.
"""


@pytest.fixture
def imported(api: ApiClient, deliver_queued: Deliver, tmp_path: Path) -> tuple[Any, str]:
    files = {**_corpus(), "wide.md": WIDE_OPEN}
    files["SUMMARY.md"] += b"* [Wide open](wide.md)\n"
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "source.git", files), ref="main")
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"
    return ada, space["id"]


def test_every_read_of_the_imported_space_answers_with_official_values(api: ApiClient, imported: Any) -> None:
    ada, space_id = imported
    listing = {page["title"]: page for page in pages(api, ada, space_id)}  # 200 (was 500 for the space)
    landing = listing["Developers"]["layout"]
    assert (landing["width"], landing["cover"], landing["coverSize"]) == ("wide", True, "full")
    assert (landing["title"], landing["tableOfContents"]) == (False, True)
    assert listing["Guides"]["layout"]["coverSize"] == "hero"
    wide = listing["Wide open"]["layout"]
    assert (wide["width"], wide["coverSize"]) == ("wide", "full")
    for page in listing.values():
        one = api.get(f"/spaces/{space_id}/content/page/{page['id']}", token=ada.token)
        assert (one.status, one.json()["layout"]) == (200, page["layout"])
        markdown = api.get(f"/spaces/{space_id}/content/page/{page['id']}", token=ada.token,
                           query={"format": "markdown"})
        assert markdown.status == 200
    revision = api.get(f"/spaces/{space_id}/content", token=ada.token)
    assert revision.status == 200
    assert "original" not in str(revision.json())  # what the export keeps is no field of the wire


def test_an_export_writes_the_values_back_as_written(api: ApiClient, deliver_queued: Deliver, imported: Any,
                                                     tmp_path: Path) -> None:
    ada, space_id = imported
    target = tmp_path / "export.git"
    url = bare_repo(target)
    start(api, ada, space_id, "export", url=url, ref="main", commitMessage="Export")
    deliver_queued()
    files = branch_files(target)
    landing = _front_matter(files["README.md"])["layout"]
    source = _front_matter(_corpus()["README.md"])["layout"]
    assert landing["cover"] == {"visible": True, "size": "background"}
    assert landing["width"] == source["width"]
    assert {k: v for k, v in landing.items() if k != "cover"} == \
        {k: v for k, v in source.items() if k in landing and k != "cover"}
    assert _front_matter(files["wide.md"])["layout"] == {"width": "full", "cover": {"size": "large"}}
    assert _front_matter(files["guides.md"])["layout"]["cover"] == {"visible": False, "size": "hero"}
    # imported again, the space reads as before
    before = pages(api, ada, space_id)
    start(api, ada, space_id, "import", url=url, ref="main")
    deliver_queued()
    assert [p["layout"] for p in pages(api, ada, space_id)] == [p["layout"] for p in before]
