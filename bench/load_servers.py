"""The processes of the load benchmark (bench/load.py): `make run` and Stoplight Prism, the load generators
(autocannon for kept-alive concurrent clients, a sequential client for one-shot operations), and the CPU
time each of the runner's processes spends, read from /proc."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load"
SPEC = ROOT / "tests" / "reference" / "gitbook-openapi-0.146.0-seed-ops.json"
READY = re.compile(r"Bindery API listening on http://127\.0\.0\.1:(\d+)/v1")
STORAGE = re.compile(r"^Storage: .* at (http://127\.0\.0\.1:\d+)")
BLOBS = re.compile(r"^Blobs: (?:files in (\S+)|.*S3 at (http://\S+))")
TOKEN = "gb_api_load_bench_token"  # noqa: S105 - the bootstrap token of a throw-away data directory


@dataclass(frozen=True)
class Runner:
    """A running `make run`: its port and pid, and where its table and blobs are (for seeding)."""

    port: int
    pid: int
    dynamodb_endpoint: str
    blob_dir: str | None
    s3_endpoint: str | None
    worker_cpu: Path  # where its queue deliveries keep their workers' CPU (local/background_work.py)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def npm_bin(name: str) -> Path:
    path = LOAD / "node_modules" / ".bin" / name
    if not path.exists():
        subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=LOAD, check=True)
    return path


def _wait_for_line(process: subprocess.Popen[str], pattern: re.Pattern[str], limit: float
                   ) -> tuple[re.Match[str], list[str]]:
    assert process.stdout is not None
    deadline = time.monotonic() + limit
    seen: list[str] = []
    for line in process.stdout:
        seen.append(line)
        found = pattern.search(line)
        if found:
            return found, seen
        if time.monotonic() > deadline:
            break
    raise SystemExit("did not start:\n" + "".join(seen[-40:]))


def _stop(process: subprocess.Popen[str]) -> None:
    """SIGTERM to the server (it stops what it started), then its whole group as a last resort."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def _first(pattern: re.Pattern[str], lines: list[str]) -> re.Match[str] | None:
    return next((found for line in lines if (found := pattern.search(line))), None)


@contextmanager
def bindery(engine: str, *, bench_functions: str | None = None) -> Iterator[Runner]:
    """`make run` on a fresh data directory; `bench_functions` names a module whose bare handlers it
    serves beside template.yaml's (local.gateway.served_template)."""
    data = Path(tempfile.mkdtemp(prefix="bindery-load-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BINDERY_", "AWS_"))}
    worker_cpu = data / "worker-cpu.json"
    env.update(BINDERY_PORT="0", BINDERY_DATA_DIR=str(data), BINDERY_BOOTSTRAP_TOKEN=TOKEN,
               BINDERY_QUIET="1", BINDERY_ENGINE=engine, BINDERY_BENCH_WORKER_CPU=str(worker_cpu))
    if bench_functions:
        env["BINDERY_BENCH_FUNCTIONS"] = bench_functions
    process = subprocess.Popen([sys.executable, "-m", "local.server"], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        ready, lines = _wait_for_line(process, READY, 180)
        threading.Thread(target=process.communicate, daemon=True).start()  # keep its output flowing
        storage, blobs = _first(STORAGE, lines), _first(BLOBS, lines)
        if storage is None or blobs is None:
            raise SystemExit("the runner did not say where its table and blobs are:\n" + "".join(lines))
        yield Runner(int(ready.group(1)), process.pid, storage.group(1), blobs.group(1), blobs.group(2),
                     worker_cpu)
    finally:
        _stop(process)
        shutil.rmtree(data, ignore_errors=True)


def pruned_spec(operations: list[tuple[str, str]]) -> dict[str, Any]:
    """The official spec with only `operations` (path, method) and the components they reach (Prism does
    not start on the whole document in minutes; the operations' contracts are unchanged)."""
    spec: dict[str, Any] = json.loads(SPEC.read_text())
    paths: dict[str, dict[str, Any]] = {}
    for path, method in operations:
        shared = {k: v for k, v in spec["paths"][path].items() if k == "parameters"}
        paths.setdefault(path, dict(shared))[method] = spec["paths"][path][method]
    kept: dict[str, dict[str, Any]] = {}
    pending: list[Any] = list(paths.values())
    while pending:
        node = pending.pop()
        for section, name in re.findall(r'"\$ref": "#/components/([^/"]+)/([^"]+)"', json.dumps(node)):
            if name not in kept.setdefault(section, {}):
                kept[section][name] = spec["components"][section][name]
                pending.append(kept[section][name])
    if "securitySchemes" in spec["components"]:
        kept["securitySchemes"] = spec["components"]["securitySchemes"]
    return {**{k: spec[k] for k in ("openapi", "info", "security") if k in spec},
            "servers": [{"url": "/"}], "paths": paths, "components": kept}


@contextmanager
def prism(operation: tuple[str, str], limit: float = 60) -> Iterator[tuple[int, int] | None]:
    """Prism mocking one operation (path, method): its port and pid; None when it is not listening within
    `limit` seconds
    (it never starts on some operations of the official spec: those whose schemas recurse, such as a
    page's document or a change request's, keep it busy dereferencing for minutes)."""
    port = _free_port()
    document = LOAD / "spec.json"
    document.write_text(json.dumps(pruned_spec([operation])))
    command = [str(npm_bin("prism")), "mock", str(document), "-p", str(port), "-h", "127.0.0.1"]
    process = subprocess.Popen(command, cwd=LOAD, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    listening = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:  # drained to the end: a full pipe would block Prism
            if "Prism is listening" in line:
                listening.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        yield (port, process.pid) if listening.wait(limit) else None
    finally:
        _stop(process)


def request(conn: http.client.HTTPConnection, method: str, path: str, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    if response.status >= 300:
        raise SystemExit(f"{method} {path}: {response.status} {raw[:300]!r}")
    return json.loads(raw) if raw else None


def autocannon(url: str, connections: int, seconds: int, method: str = "GET") -> dict[str, float]:
    command = [str(npm_bin("autocannon")), "--json", "-c", str(connections), "-d", str(seconds),
               "-m", method, "-H", f"Authorization=Bearer {TOKEN}", url]
    out = subprocess.run(command, cwd=LOAD, check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    return {"rps": report["requests"]["average"], "p50_ms": report["latency"]["p50"],
            "p99_ms": report["latency"]["p99"], "requests": report["requests"]["total"],
            "failed": report.get("non2xx", 0) + report.get("errors", 0)}


def prewarm(port: int, method: str, path: str, concurrency: int = 16) -> None:
    """One request, then `concurrency` at once, each awaited: every execution environment has then
    imported its function and filled its caches (a search's first request builds the index the others
    then download), so a slow start on a loaded machine is not measured as the operation's cost."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    request(conn, method, path)
    conn.close()

    def one() -> None:
        each = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        request(each, method, path)
        each.close()

    threads = [threading.Thread(target=one) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def settle(runner_pid: int, quiet_ms: float = 80.0, limit: float = 45.0) -> None:
    """Waits (at most `limit` seconds) until the runner's processes spend under `quiet_ms` of CPU in a
    second: the queue deliveries an operation triggered (a merge's indexing) are done, so their CPU is
    counted with that operation and not with the next."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = sum(cpu_by_role(runner_pid).values())
        time.sleep(1)
        if (sum(cpu_by_role(runner_pid).values()) - before) * 1000 < quiet_ms:
            return


def sequential(port: int, method: str, paths: list[str]) -> dict[str, float]:
    """One kept-alive client requesting each of `paths` once, in order (operations that change what the
    next request finds, such as merging a change request, cannot be repeated by a load generator)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    samples = []
    started = time.perf_counter()
    for path in paths:
        begun = time.perf_counter()
        request(conn, method, path)
        samples.append((time.perf_counter() - begun) * 1000)
    elapsed = time.perf_counter() - started
    samples.sort()
    return {"rps": len(paths) / elapsed, "p50_ms": statistics.median(samples),
            "p99_ms": samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))],
            "requests": len(paths), "failed": 0}


def one_client(port: int, path: str, count: int) -> dict[str, float]:
    """Median milliseconds of `count` sequential GETs, kept alive and with a new connection each."""
    def timed(keep_alive: bool) -> float:
        samples = []
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for _ in range(count):
            if not keep_alive:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            started = time.perf_counter()
            request(conn, "GET", path)
            samples.append((time.perf_counter() - started) * 1000)
            if not keep_alive:
                conn.close()
        samples.sort()
        return samples[len(samples) // 2]

    timed(True)  # warm the environments
    kept, fresh = timed(True), timed(False)
    return {"keep_alive_ms": kept, "new_connection_ms": fresh, "ratio_new_over_kept": fresh / kept}


def _processes() -> dict[int, tuple[int, str, float]]:
    """Every process: pid -> (parent pid, command name, CPU seconds so far)."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        found[int(entry.name)] = (int(fields[1]), name, (int(fields[11]) + int(fields[12])) / ticks)
    return found


def cpu_of_tree(pid: int) -> dict[str, float]:
    """CPU seconds so far of a process and all its descendants (Prism: node and its children)."""
    if not Path("/proc").is_dir():
        return {}
    processes = _processes()
    tree, grown = {pid}, True
    while grown:
        found = {child for child, (parent, _, _) in processes.items() if parent in tree} - tree
        tree, grown = tree | found, bool(found)
    return {"prism": sum(processes[p][2] for p in tree if p in processes)}


def cpu_by_role(runner_pid: int, worker_cpu: Path | None = None) -> dict[str, float]:
    """CPU seconds so far of the runner's processes by role: the HTTP server (the runner itself, with the
    queue deliveries and moto's SQS it runs), its execution environments (its Python children) and the
    engine (its Java child, DynamoDB Local); with `worker_cpu`, the part of the server's that the worker
    functions' handlers spent (the queued work a deployed stack runs in its workers). Empty where there
    is no /proc."""
    if not Path("/proc").is_dir():
        return {}
    processes = _processes()
    totals = {"server": processes.get(runner_pid, (0, "", 0.0))[2], "environments": 0.0, "engine": 0.0}
    for _pid, (parent, name, seconds) in processes.items():
        if parent == runner_pid:
            totals["engine" if name == "java" else "environments"] += seconds
    if worker_cpu is not None:
        totals["workers"] = workers_cpu(worker_cpu)
    return totals


def workers_cpu(path: Path) -> float:
    """The worker handlers' CPU seconds so far, as the runner's deliveries keep them (0 before the
    first delivery)."""
    try:
        usage: dict[str, dict[str, float]] = json.loads(path.read_text())
    except FileNotFoundError:
        return 0.0
    return sum(used["cpu_seconds"] for used in usage.values())
