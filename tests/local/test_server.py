"""local.server as `make run` starts it: a real process, real sockets (loopback only), one keep-alive
connection, and DynamoDB Local's data surviving a restart."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

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
        clean.update({"BINDERY_PORT": "0", "BINDERY_DATA_DIR": "data", "PYTHONPATH": str(ROOT), **env})
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


@pytest.fixture
def start_runner(tmp_path: Path) -> Iterator[Any]:
    runners: list[Runner] = []

    def start(**env: str) -> Runner:
        runners.append(Runner(tmp_path, env))
        return runners[-1]

    yield start
    for runner in runners:
        runner.kill_group()


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


def test_serves_the_api_over_one_keep_alive_connection(start_runner):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known")
    assert re.search(r"WARNING: .*Data will NOT persist", server.text())
    banner = server.banner()
    assert banner["API token"] == "known"
    assert banner["API URL"] == f"http://127.0.0.1:{server.port}/v1"

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    status, body = call(conn, "GET", "/v1/orgs", "known")
    assert status == 200, body
    assert [org["id"] for org in body["items"]] == [banner["Organization id"]]
    sock = conn.sock
    assert sock is not None

    status, body = call(conn, "GET", "/v1/user", "known")
    assert (status, body["id"]) == (200, banner["User id"])
    status, body = call(conn, "GET", "/v1/orgs")
    assert status == 401
    assert body == {"error": {"code": 401, "message": body["error"]["message"]}}
    status, body = call(conn, "POST", "/v1/orgs", "known", {"title": "Acme"})
    assert (status, body["title"]) == (201, "Acme"), body
    assert conn.sock is sock, "the server closed the keep-alive connection"

    server.wait_for(re.compile(r"^GET /v1/orgs 401 \d+\.\dms$"))
    conn.close()


def test_request_bodies_chunked_and_oversized(start_runner):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("POST", "/v1/orgs", body=iter([b'{"title":', b' "Chunked"}']), encode_chunked=True,
                 headers={"Authorization": "Bearer known", "Content-Type": "application/json",
                          "Transfer-Encoding": "chunked"})
    response = conn.getresponse()
    assert (response.status, json.loads(response.read())["title"]) == (201, "Chunked")
    sock = conn.sock

    status, body = call(conn, "POST", "/v1/orgs", "known", {"title": "x" * (11 * 1024 * 1024)})
    assert (status, body["error"]["code"]) == (413, 413)
    # The oversized body was drained, so the connection still carries the next request.
    status, _ = call(conn, "GET", "/v1/user", "known")
    assert status == 200
    assert conn.sock is sock
    conn.close()


def test_without_java_auto_falls_back_to_moto_with_a_warning(start_runner, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    server = start_runner(PATH=str(empty), BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1")
    assert re.search(r"^WARNING: java was not found.*Data will NOT persist", server.text(), re.MULTILINE)
    assert STORAGE.search(server.text()).group(0).startswith("Storage: moto")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    status, body = call(conn, "GET", "/v1/user", "known")
    assert (status, body["id"]) == (200, server.banner()["User id"])
    conn.close()


def test_dynamodb_local_data_survives_a_restart(start_runner, tmp_path):
    data_dir = tmp_path / "data"
    first = start_runner(BINDERY_ENGINE="dynamodb-local", BINDERY_BOOTSTRAP_TOKEN="known")
    banner = first.banner()
    assert banner["API token"] == "known"
    engine = urlsplit(STORAGE.search(first.text()).group(1))
    conn = http.client.HTTPConnection("127.0.0.1", first.port, timeout=30)
    status, body = call(conn, "POST", "/v1/orgs", "known", {"title": "Persisted"})
    assert status == 201, body
    status, body = call(conn, "GET", "/v1/orgs?limit=1", "known")
    assert status == 200
    cursor = body["next"]["page"]
    conn.close()
    secret = (data_dir / "cursor-secret").read_text()
    assert first.stop() == 0
    with pytest.raises(ConnectionRefusedError):  # the runner stopped DynamoDB Local on its way out
        socket.create_connection((engine.hostname, engine.port), timeout=10).close()

    second = start_runner(BINDERY_ENGINE="dynamodb-local", BINDERY_BOOTSTRAP_TOKEN="other")
    assert second.banner() == {}, "bootstrap ran again"
    assert "known" not in second.text()
    conn = http.client.HTTPConnection("127.0.0.1", second.port, timeout=30)
    status, body = call(conn, "GET", "/v1/orgs", "known")
    assert status == 200, body
    assert sorted(org["title"] for org in body["items"]) == ["Bindery", "Persisted"]
    assert banner["Organization id"] in {org["id"] for org in body["items"]}
    # The cursor signed before the restart still verifies: the secret was kept in the data dir.
    status, body = call(conn, "GET", f"/v1/orgs?limit=1&page={cursor}", "known")
    assert (status, len(body["items"])) == (200, 1), body
    status, _ = call(conn, "GET", "/v1/orgs", "other")
    assert status == 401
    conn.close()
    assert (data_dir / "cursor-secret").read_text() == secret
    assert second.stop() == 0
    assert (data_dir / "dynamodb" / "shared-local-instance.db").is_file()
