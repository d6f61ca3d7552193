"""Front matter past the spec's lengths: an icon longer than `Icon`'s 50 characters and a variable longer
than `VariableValue`'s 256. Every read shows what the spec allows (no icon, the variable cut to 256), and
an export writes the page's front matter back as the repository had it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from bindery.engines.gitsync import page_fields
from tests.api.git_sync_support import (
    git_settings,  # noqa: F401 - a fixture
    pages,
    run,
    space_with_admin,
    start,
)
from tests.client import ApiClient
from tests.git_repos import bare_repo, branch_files

pytestmark = pytest.mark.usefixtures("git_settings")
Deliver = Callable[[], int]
ICON = "https://example.com/icons/" + "a-very-long-icon-name-" * 3 + ".svg"
LONG = "word " * 80  # 400 characters
META = {"description": "Long values.", "icon": ICON, "vars": {"long": LONG, "short": "ok", "n": 3}}
PAGE = "---\n" + yaml.safe_dump(META, sort_keys=False) + "---\n\n# Long\n\nText.\n"
FILES = {"README.md": b"# Welcome\n\nHi.\n", "long.md": PAGE.encode(),
         "SUMMARY.md": b"# Table of contents\n\n* [Welcome](README.md)\n* [Long](long.md)\n"}


def _front_matter(markdown: bytes) -> dict[str, Any]:
    return dict(yaml.safe_load(markdown.decode().split("---\n")[1]))


@pytest.fixture
def imported(api: ApiClient, deliver_queued: Deliver, tmp_path: Path) -> tuple[Any, str, str]:
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "source.git", FILES), ref="main")
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"
    page_id = next(page["id"] for page in pages(api, ada, space["id"]) if page["title"] == "Long")
    return ada, space["id"], page_id


def test_reads_show_what_the_spec_allows(api: ApiClient, imported: Any) -> None:
    ada, space_id, page_id = imported
    assert len(ICON) > 50
    listed = next(page for page in pages(api, ada, space_id) if page["id"] == page_id)
    one = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=ada.token)
    assert one.status == 200, one.body
    for page in (listed, one.json()):
        assert "icon" not in page
        assert page["variables"] == {"long": LONG[:256], "short": "ok", "n": 3}
        assert page["description"] == "Long values."


def test_an_export_writes_the_front_matter_back_as_written(
        api: ApiClient, deliver_queued: Deliver, imported: Any, tmp_path: Path) -> None:
    ada, space_id, page_id = imported
    target = tmp_path / "export.git"
    url = bare_repo(target)
    start(api, ada, space_id, "export", url=url, ref="main", commitMessage="Export")
    deliver_queued()
    assert _front_matter(branch_files(target)["long.md"]) == META
    before = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=ada.token).json()
    start(api, ada, space_id, "import", url=url, ref="main")
    deliver_queued()
    after = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=ada.token).json()
    assert {**after, "git": None} == {**before, "git": None}  # the file's blob is the export's


def test_values_changed_since_the_import_are_written_as_changed() -> None:
    fields = page_fields.from_front_matter(META, lambda _path: None)
    assert fields["original"] == {"icon": ICON, "vars": {"long": LONG}}
    changed = {**fields, "icon": "gear", "variables": {**fields["variables"], "long": "new"}}
    meta = page_fields.to_front_matter(changed, lambda _ref: None)
    assert (meta["icon"], meta["vars"]) == ("gear", {"long": "new", "short": "ok", "n": 3})
    assert page_fields.to_front_matter(fields, lambda _ref: None) == META
