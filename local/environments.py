"""Execution environments for the local runner: API requests run in worker processes, as on Lambda.

Lambda runs each function in as many execution environments as there are concurrent requests, and each
environment handles one event at a time. The runner keeps a pool of worker processes, each one an
environment for every API function (its own interpreter, so its own imports, Powertools app objects and
boto3 clients, and a cold start on its first request to a function): a request takes an idle one, waits
when all are busy, and hands it back. Queue deliveries and the TTL stream run in the server process, so
they never hold up an API request.

BINDERY_ENVIRONMENTS sets the pool's size (default: twice the CPU count, at least 2: requests spend most
of their time waiting on the engine); 0 runs requests in the server process, one at a time (a debugger
then sees them).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from local.engine import EngineError
from local.gateway import Gateway, Reply

Request = tuple[str, str, dict[str, str], bytes | None]


def default_size() -> int:
    raw = os.environ.get("BINDERY_ENVIRONMENTS")
    if raw is not None and raw.strip():
        if not raw.strip().isdigit():
            raise EngineError(f"BINDERY_ENVIRONMENTS must be a whole number, not {raw!r}")
        return int(raw)
    return max(2, 2 * (os.cpu_count() or 1))


def _serve(connection: Connection, paths: list[str]) -> None:
    """A worker process: one Gateway (authorizer answers cached as API Gateway caches them), one request
    at a time, until the server closes the pipe."""
    sys.path[:0] = [p for p in paths if p not in sys.path]
    # The server stops its environments with SIGTERM, whatever it ignores itself while it stops.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    gateway = Gateway(cache_authorizer=True)
    while True:
        try:
            method, target, headers, body = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            reply = gateway.dispatch(method, target, headers, body)
        except Exception:  # noqa: BLE001 - a crashing function is a 502 from API Gateway
            traceback.print_exc()
            reply = crashed()
        connection.send(reply)


def crashed() -> Reply:
    return Reply(502, {"Content-Type": "application/json"},
                 b'{"error":{"code":502,"message":"Internal server error"}}')


class _Handoff:
    """Idle environments, handed to waiting requests strictly in arrival order: a released environment
    goes to the oldest waiter, never to a request that arrives at that moment (queue.Queue lets a new
    caller barge in ahead of a woken one, which under load starves some requests for seconds)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[Connection] = []
        self._waiters: deque[tuple[threading.Event, list[Connection]]] = deque()

    def take(self) -> Connection:
        with self._lock:
            if self._idle and not self._waiters:
                return self._idle.pop()
            ready, slot = threading.Event(), list[Connection]()
            self._waiters.append((ready, slot))
        ready.wait()
        return slot[0]

    def give(self, connection: Connection) -> None:
        with self._lock:
            if self._waiters:
                ready, slot = self._waiters.popleft()
                slot.append(connection)
                ready.set()
            else:
                self._idle.append(connection)

    def replace(self, dead: Callable[[Connection], bool], spawn: Callable[[Connection], Connection]) -> None:
        """Swaps every idle environment that `dead` says has died for the one `spawn` starts in its place."""
        with self._lock:
            self._idle = [spawn(connection) if dead(connection) else connection for connection in self._idle]


class Environments:
    """A pool of `size` worker processes; `dispatch` is safe to call from any number of threads."""

    def __init__(self, size: int) -> None:
        self._context = multiprocessing.get_context("spawn")  # no fork of a process that holds threads
        root = Path(__file__).resolve().parents[1]
        self._paths = [str(root / "layers" / "shared"), str(root)]
        self._idle = _Handoff()
        self._processes: dict[int, Any] = {}
        # Once stopping, no environment is started again (a request cut short by the stop would
        # otherwise replace its environment with one nobody stops).
        self._stopping = threading.Event()
        for _ in range(size):
            self._idle.give(self._spawn())

    def _spawn(self) -> Connection:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs, self._paths), daemon=True)
        process.start()
        theirs.close()
        self._processes[id(ours)] = process
        return ours

    def _dead(self, connection: Connection) -> bool:
        return not self._processes[id(connection)].is_alive() and not self._stopping.is_set()

    def _respawn(self, connection: Connection) -> Connection:
        self._processes.pop(id(connection)).join(timeout=5)
        connection.close()
        return self._spawn()

    def _take(self) -> Connection:
        """An idle environment. Those that died while idle (killed, out of memory) are replaced first,
        all of them, as Lambda never routes a request to a dead environment: idle ones are taken last
        in first out (the warm one again), so a dead one at the bottom would otherwise linger unreaped."""
        self._idle.replace(self._dead, self._respawn)
        connection = self._idle.take()
        return self._respawn(connection) if self._dead(connection) else connection

    def pids(self) -> list[int]:
        return [process.pid for process in self._processes.values()]

    def dispatch(self, method: str, target: str, headers: dict[str, str], body: bytes | None) -> Reply:
        connection = self._take()
        try:
            connection.send((method, target, headers, body))
            reply: Reply = connection.recv()
        except (EOFError, OSError):
            # The environment died mid-request: as on Lambda, this request fails (502) and a new
            # environment takes the old one's place.
            if not self._stopping.is_set():
                self._processes.pop(id(connection)).join(timeout=5)
                connection.close()
                self._idle.give(self._spawn())
            return crashed()
        self._idle.give(connection)
        return reply

    def stop(self) -> None:
        self._stopping.set()
        for process in self._processes.values():
            process.terminate()
        for process in self._processes.values():
            process.join(timeout=5)
