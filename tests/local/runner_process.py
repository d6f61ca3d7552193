"""`python -m local.server` as `make run` starts it, in its own process for the runner's tests, and calls
to it over real sockets (loopback only)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.git_repos import bare_repo

ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(r"^Bindery API listening on http://127\.0\.0\.1:(\d+)/v1$")
BANNER = re.compile(r"^\s+(API URL|Organization id|User id|API token):\s+(\S+)$")
STORAGE = re.compile(r"^Storage: .*? at (http://[^\s,]+)", re.MULTILINE)
START_TIMEOUT = 180  # the first DynamoDB Local start may fetch its jar


class Runner:
    """`python -m local.server` in its own process group, its output collected line by line."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        # The test session's AWS and BINDERY settings are not the runner's: it sets its own defaults.
        clean = {k: v for k, v in os.environ.items() if not k.startswith(("BINDERY_", "AWS_", "POWERTOOLS_"))}
        # Run from `cwd` with a relative data dir, as `make run` does from the repository root.
        clean.update({"BINDERY_PORT": "0", "BINDERY_DATA_DIR": "data", "PYTHONPATH": str(ROOT),
                      # One event at a time unless a test asks for execution environments: the polls of
                      # `import_repository` wait on the worker only because a request waits for it then.
                      "BINDERY_ENVIRONMENTS": "0", **env})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "local.server"], cwd=cwd, env=clean, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.port = int(self.wait_for(READY, START_TIMEOUT).group(1))

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, pattern: re.Pattern[str], timeout: float = 30) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                pytest.fail(f"no line matching {pattern.pattern} within {timeout} s:\n{self.text()}")
            if line is None:
                code = self.process.wait()
                pytest.fail(f"local.server exited ({code}) before {pattern.pattern}:\n{self.text()}")
            self.output.append(line)
            found = pattern.search(line)
            if found:
                return found

    def text(self) -> str:
        return "\n".join(self.output)

    def banner(self) -> dict[str, str]:
        return dict(found.groups() for line in self.output if (found := BANNER.match(line)))

    def stop(self) -> int:
        """SIGTERM to the runner alone: it must stop its engine itself."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        finally:
            self.kill_group()

    def kill_group(self) -> None:
        # Last resort against leftovers (a DynamoDB Local the runner failed to stop): the group is ours.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


def call(conn: http.client.HTTPConnection, method: str, path: str, token: str | None = None,
         body: Any = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    return response.status, json.loads(raw) if raw else None


LOGO = b"\x89PNG\r\n\x1a\nlogo-bytes"
REPOSITORY = {
    "README.md": b"# Home\n\nWelcome.\n\n![logo](.gitbook/assets/logo.png)\n",
    "SUMMARY.md": b"# Summary\n\n* [Home](README.md)\n",
    ".gitbook/assets/logo.png": LOGO,
}
RUN_TIMEOUT = 120


def import_repository(server: Runner, token: str, repository: Path) -> tuple[str, list[dict[str, Any]]]:
    """A Git import of REPOSITORY into a new space of the bootstrap organization, as a user starts it,
    followed through the API until the worker has run it: the space id and the space's files.

    Each poll waits for the runner's answer, and the runner handles one event at a time, so a poll that
    arrives while the worker runs waits for it: no sleeps."""
    org_id = server.banner()["Organization id"]
    url = bare_repo(repository, REPOSITORY)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=RUN_TIMEOUT)
    status, space = call(conn, "POST", f"/v1/orgs/{org_id}/spaces", token, {"title": "Imported"})
    assert status == 201, space
    conn.request("POST", f"/v1/spaces/{space['id']}/git/import",
                 body=json.dumps({"url": url, "ref": "refs/heads/main"}),
                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    response = conn.getresponse()
    assert response.status == 204, response.read()
    response.read()
    run_path = "/v1" + str(response.headers["Location"]).split("/v1", 1)[1]
    deadline = time.monotonic() + RUN_TIMEOUT
    while True:
        status, run = call(conn, "GET", run_path, token)
        assert status == 200, run
        if run["status"] not in ("pending", "running"):
            break
        if time.monotonic() > deadline:
            pytest.fail(f"the import was still {run['status']} after {RUN_TIMEOUT} s:\n{server.text()}")
    assert (run["status"], run["error"]) == ("succeeded", None), server.text()
    status, files = call(conn, "GET", f"/v1/spaces/{space['id']}/content/files", token)
    assert status == 200, files
    conn.close()
    return space["id"], files["items"]


def download(url: str) -> tuple[str, bytes]:
    """GET a file's downloadURL as a browser would: its Content-Type and bytes."""
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - http URLs of loopback servers
        return response.headers["Content-Type"], response.read()
