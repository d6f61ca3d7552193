"""The browser suite (`make test-browser`, part of `make test`): `make run`'s server in its own process,
a site imported from the fluentd corpus through Git Sync, and Debian's Chromium driven by Playwright
(docs/published-sites.md, "Proof")."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
import pytest

from tests.data_paths import FLUENTD_CORPUS
from tests.git_repos import bare_repo
from tests.local.runner_process import Runner, call

CHROMIUM = os.environ.get("BINDERY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
RUN_TIMEOUT = 300


@dataclass
class Published:
    server: Runner
    token: str
    org_id: str
    space_id: str
    key: str  # the adaptive site's publishing-auth key

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def visitor_token(self, **claims: Any) -> str:
        return jwt.encode({"exp": int(time.time()) + 3600, **claims}, self.key, algorithm="HS256")


class _Api:
    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=RUN_TIMEOUT)
        self.token = token

    def __call__(self, method: str, path: str, body: Any = None, expect: tuple[int, ...] = (200, 201, 204)
                 ) -> Any:
        status, answer = call(self.conn, method, "/v1" + path, self.token, body)
        assert status in expect, (method, path, status, answer)
        return answer


def _import_corpus(api: _Api, org_id: str, repository: Path) -> str:
    files = {str(path.relative_to(FLUENTD_CORPUS)): path.read_bytes()
             for path in FLUENTD_CORPUS.rglob("*") if path.is_file()}
    space = api("POST", f"/orgs/{org_id}/spaces", {"title": "Fluentd"})
    api.conn.request("POST", f"/v1/spaces/{space['id']}/git/import",
                     body=json.dumps({"url": bare_repo(repository, files), "ref": "refs/heads/main"}),
                     headers={"Authorization": f"Bearer {api.token}", "Content-Type": "application/json"})
    response = api.conn.getresponse()
    response.read()
    assert response.status == 204
    run_path = str(response.headers["Location"]).split("/v1", 1)[1]
    deadline = time.monotonic() + RUN_TIMEOUT
    # Each poll waits while the runner (one event at a time) runs the worker: no sleeps needed.
    while (run := api("GET", run_path))["status"] in ("pending", "running"):
        assert time.monotonic() < deadline, run
    assert run["status"] == "succeeded", run
    return str(space["id"])


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Published]:
    """Two sites of the fluentd docs: `docs` (public, customized) and `members` (visitor-auth, with a
    section shown only to visitors whose token says `beta: true`)."""
    workdir = tmp_path_factory.mktemp("browser")
    server = Runner(workdir, {"BINDERY_ENGINE": "moto", "BINDERY_QUIET": "1"})
    try:
        banner = server.banner()
        token, org_id = banner["API token"], banner["Organization id"]
        api = _Api(server.port, token)
        api("PATCH", f"/orgs/{org_id}", {"hostname": "fluent"})
        space_id = _import_corpus(api, org_id, workdir / "fluentd.git")
        docs = api("POST", f"/orgs/{org_id}/sites", {"title": "Fluentd Docs", "spaces": [space_id]})
        api("PATCH", f"/orgs/{org_id}/sites/{docs['id']}", {"basename": "docs"})
        api("POST", f"/orgs/{org_id}/sites/{docs['id']}/publish")
        members = api("POST", f"/orgs/{org_id}/sites", {"title": "Members", "spaces": [space_id]})
        site = f"/orgs/{org_id}/sites/{members['id']}"
        api("PATCH", site, {"basename": "members", "visibility": "visitor-auth"})
        api("POST", f"{site}/sections", {"spaceId": space_id, "title": "Guide"})
        beta = api("POST", f"{site}/sections", {"spaceId": space_id, "title": "Beta Program"})
        api("PATCH", f"{site}/sections/{beta['id']}", {"condition": "visitor.claims.beta == true"})
        key = api("GET", f"{site}/publishing/auth")["privateKey"]
        api("POST", f"{site}/publish")
        api.conn.close()
        yield Published(server, token, org_id, space_id, key)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()
