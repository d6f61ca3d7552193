"""Execution environments (local/environments.py): `make run` handles API requests in worker processes,
each one request at a time, as Lambda's environments do; one that dies is replaced."""

from __future__ import annotations

import http.client
import os
import re
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.local.runner_process import call

ENVIRONMENTS = re.compile(r"^Execution environments: (\d+), processes \[([\d, ]+)\]$", re.MULTILINE)


def _state(pid: int) -> str:
    """A process's state letter, "gone" once it has been reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "gone"


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            listed = (task / "children").read_text()
        except FileNotFoundError:
            # The thread ended between the listing and the read (request and delivery threads come and
            # go); Linux hands an ended thread's children to another thread of the process, listed there.
            continue
        found.update(int(child) for child in listed.split())
    return found


def test_requests_run_in_worker_processes_and_a_dead_one_is_replaced(start_runner):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_ENVIRONMENTS="2",
                          BINDERY_QUIET="1")
    found = ENVIRONMENTS.search(server.text())
    assert found, server.text()
    pids = [int(pid) for pid in found.group(2).split(",")]
    assert int(found.group(1)) == len(pids) == 2
    assert set(pids) <= _children(server.process.pid)

    def get_user(_: int) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        try:
            return call(conn, "GET", "/v1/user", "known")[0]
        finally:
            conn.close()

    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(get_user, range(16))) == [200] * 16

    os.kill(pids[0], signal.SIGKILL)
    # The kill is asynchronous: wait until the kernel reports the process dead (a zombie until the
    # runner reaps it), which the next request finds, whichever environment it is given.
    while _state(pids[0]) not in ("Z", "X", "gone"):
        pass
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    statuses = [call(conn, "GET", "/v1/user", "known")[0] for _ in range(6)]
    conn.close()
    assert statuses == [200] * 6
    living = _children(server.process.pid)
    assert pids[1] in living
    assert pids[0] not in living
    assert len([pid for pid in living if _state(pid) not in ("Z", "X", "gone")]) >= 2
