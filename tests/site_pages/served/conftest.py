"""Fixtures of the site-page tests: an organization `acme` with two spaces imported through
Git Sync (the real importer and worker), shown by a site `docs`, read through the in-process gateway's
readers' API (`/sites/...`), as a browser would. The table and bucket are the suite's (tests/conftest.py),
fresh for each test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from local.gateway import Reply
from tests.api.git_sync_support import (
    git_settings,  # noqa: F401 - a fixture
    run,
    start,
)
from tests.api.sites.test_sites import new_site, site_path
from tests.api.spaces.test_spaces import new_space
from tests.client import ApiClient, Identity
from tests.git_repos import bare_repo

GUIDE = {
    ".gitbook.yaml": b"root: ./\nredirects:\n  old/start: install/README.md\n",
    "README.md": b"# Welcome\n\nFluent pages for a < b & c.\n\n## First steps\n\nStart here.\n\n"
                 b"{% content-ref url=\"install/linux.md\" %}\n[linux.md](install/linux.md)\n"
                 b"{% endcontent-ref %}\n",
    "SUMMARY.md": b"# Summary\n\n* [Welcome](README.md)\n* [Install](install/README.md)\n"
                  b"  * [On Linux](install/linux.md)\n* [Secret](secret.md)\n\n## Reference\n\n"
                  b"* [Options](options.md)\n",
    "install/README.md": b"# Install\n\nGet the package.\n\n![logo](../.gitbook/assets/logo.png)\n",
    "install/linux.md": b"# On Linux\n\nUse apt to install **buffer** plugins.\n",
    "secret.md": b"---\nhidden: true\n---\n\n# Secret\n\nNot in the sidebar.\n",
    "options.md": b"# Options\n\nEvery option.\n\n"
                  b"Your plan: <code class=\"expression\">visitor.claims.unsigned.plan</code>.\n\n"
                  b"{% if visitor.claims.unsigned.pro %}\nPro settings.\n"
                  b"{% endif %}\n\n<script>alert(1)</script>\n",
    ".gitbook/assets/logo.png": b"\x89PNG\r\n\x1a\nlogo-bytes",
}
API_DOCS = {
    "README.md": b"# API\n\nThe endpoints.\n",
    "SUMMARY.md": b"# Summary\n\n* [API](README.md)\n",
}


@dataclass
class World:
    api: ApiClient
    ada: Identity
    site_id: str
    guide: str  # space ids
    api_space: str

    def site(self, rest: str = "") -> str:
        return site_path(self.ada, self.site_id, rest)

    def get(self, path: str, *, headers: dict[str, str] | None = None, prefix: str = "/sites/acme/docs"
            ) -> Reply:
        return self.api.gateway.dispatch("GET", prefix + path, {"Host": "127.0.0.1:3000", **(headers or {})})

    def patch_site(self, **body: Any) -> None:
        reply = self.api.patch(self.site(), token=self.ada.token, body=body)
        assert reply.status == 200, reply.body

    def text(self, path: str, status: int = 200, **kw: Any) -> str:
        reply = self.get(path, **kw)
        assert reply.status == status, (reply.status, reply.body[:500])
        return reply.body.decode()


def imported_space(api: ApiClient, who: Identity, deliver: Callable[[], int], *, repo: Path,
                   files: dict[str, bytes], title: str) -> str:
    space = new_space(api, who, title=title)
    path = start(api, who, space["id"], "import", url=bare_repo(repo, files), ref="refs/heads/main")
    deliver()
    assert run(api, who, path)["status"] == "succeeded"
    return str(space["id"])


@pytest.fixture
def world(api: ApiClient, deliver_queued: Callable[[], int], tmp_path: Path,
          git_settings: dict[str, str]) -> World:  # noqa: F811 - git_settings is the fixture
    ada = api.org_admin()
    assert api.patch(f"/orgs/{ada.org_id}", token=ada.token, body={"hostname": "acme"}).status == 200
    guide = imported_space(api, ada, deliver_queued, repo=tmp_path / "guide.git", files=GUIDE, title="Guide")
    api_space = imported_space(api, ada, deliver_queued, repo=tmp_path / "api.git", files=API_DOCS,
                               title="API")
    site = new_site(api, ada, title="Acme Docs", spaces=[guide, api_space])
    world = World(api, ada, site["id"], guide, api_space)
    world.patch_site(basename="docs")
    assert api.post(world.site("/publish"), token=ada.token).status == 200
    return world
