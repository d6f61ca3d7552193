"""Load benchmark: `make run` under concurrent clients, against a stateless mock of the same operation.

    python -m bench.load [--seconds 8] [--connections 64] [--engine dynamodb-local]

Starts the local runner (`python -m local.server`, a fresh data directory) and Stoplight Prism mocking
the official spec (tests/reference/...: it returns example data and keeps no state, the ceiling of what
an HTTP server of the contract can do here), both from bench/load/ (`npm ci` there: autocannon, Prism).
Then, each measured in this run:

- GET space with `--connections` kept-alive clients (autocannon), Bindery and Prism: requests per second
  and latency percentiles, and Bindery ÷ Prism;
- GET space from one client, kept alive vs a new connection per request (Bindery): the ratio shows the
  keep-alive stall is gone when it is ≥ 1.

Results go to bench/results/load.json; bench/README.md shows the latest table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load"
SPEC = ROOT / "tests" / "reference" / "gitbook-openapi-0.146.0-seed-ops.json"
RESULTS = ROOT / "bench" / "results" / "load.json"
READY = re.compile(r"Bindery API listening on http://127\.0\.0\.1:(\d+)/v1")
TOKEN = "gb_api_load_bench_token"  # noqa: S105 - the bootstrap token of a throw-away data directory


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _npm_bin(name: str) -> Path:
    path = LOAD / "node_modules" / ".bin" / name
    if not path.exists():
        subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=LOAD, check=True)
    return path


def _wait_for_line(process: subprocess.Popen[str], pattern: re.Pattern[str], limit: float) -> re.Match[str]:
    assert process.stdout is not None
    deadline = time.monotonic() + limit
    seen: list[str] = []
    for line in process.stdout:
        seen.append(line)
        found = pattern.search(line)
        if found:
            return found
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


@contextmanager
def bindery(engine: str) -> Iterator[int]:
    data = Path(tempfile.mkdtemp(prefix="bindery-load-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BINDERY_", "AWS_"))}
    env.update(BINDERY_PORT="0", BINDERY_DATA_DIR=str(data), BINDERY_BOOTSTRAP_TOKEN=TOKEN,
               BINDERY_QUIET="1", BINDERY_ENGINE=engine)
    process = subprocess.Popen([sys.executable, "-m", "local.server"], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        port = int(_wait_for_line(process, READY, 180).group(1))
        threading.Thread(target=process.communicate, daemon=True).start()  # keep its output flowing
        yield port
    finally:
        _stop(process)
        shutil.rmtree(data, ignore_errors=True)


def pruned_spec(path: str, method: str) -> dict[str, Any]:
    """The official spec with one operation and the components it reaches (Prism does not start on the
    whole document in minutes; the operation's contract is unchanged)."""
    spec: dict[str, Any] = json.loads(SPEC.read_text())
    operation = spec["paths"][path][method]
    parameters = {k: v for k, v in spec["paths"][path].items() if k == "parameters"}
    kept: dict[str, dict[str, Any]] = {}
    pending = [operation, parameters]
    while pending:
        node = pending.pop()
        for ref in re.findall(r'"\$ref": "#/components/([^/"]+)/([^"]+)"', json.dumps(node)):
            section, name = ref
            if name not in kept.setdefault(section, {}):
                kept[section][name] = spec["components"][section][name]
                pending.append(kept[section][name])
    if "securitySchemes" in spec["components"]:
        kept["securitySchemes"] = spec["components"]["securitySchemes"]
    return {**{k: spec[k] for k in ("openapi", "info", "security") if k in spec},
            "servers": [{"url": "/"}], "paths": {path: {method: operation, **parameters}}, "components": kept}


@contextmanager
def prism(path: str, method: str) -> Iterator[int]:
    port = _free_port()
    document = LOAD / "spec.json"
    document.write_text(json.dumps(pruned_spec(path, method)))
    command = [str(_npm_bin("prism")), "mock", str(document), "-p", str(port), "-h", "127.0.0.1"]
    process = subprocess.Popen(command, cwd=LOAD, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    try:
        _wait_for_line(process, re.compile(r"Prism is listening"), 120)
        threading.Thread(target=process.communicate, daemon=True).start()
        yield port
    finally:
        _stop(process)


def _request(conn: http.client.HTTPConnection, method: str, path: str, body: Any = None) -> Any:
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


def seed(port: int) -> str:
    """A space in the bootstrap organization; its id."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    org_id = _request(conn, "GET", "/v1/orgs")["items"][0]["id"]
    space: dict[str, Any] = _request(conn, "POST", f"/v1/orgs/{org_id}/spaces", {"title": "Load"})
    conn.close()
    return str(space["id"])


def autocannon(url: str, connections: int, seconds: int) -> dict[str, float]:
    command = [str(_npm_bin("autocannon")), "--json", "-c", str(connections), "-d", str(seconds),
               "-H", f"Authorization=Bearer {TOKEN}", url]
    out = subprocess.run(command, cwd=LOAD, check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    non_2xx = report.get("non2xx", 0) + report.get("errors", 0)
    return {"rps": report["requests"]["average"], "p50_ms": report["latency"]["p50"],
            "p99_ms": report["latency"]["p99"], "failed": non_2xx}


def one_client(port: int, path: str, count: int) -> dict[str, float]:
    """Median milliseconds of `count` sequential GETs, kept alive and with a new connection each."""
    def timed(keep_alive: bool) -> float:
        samples = []
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for _ in range(count):
            if not keep_alive:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            started = time.perf_counter()
            _request(conn, "GET", path)
            samples.append((time.perf_counter() - started) * 1000)
            if not keep_alive:
                conn.close()
        samples.sort()
        return samples[len(samples) // 2]

    timed(True)  # warm the environments
    kept, fresh = timed(True), timed(False)
    return {"keep_alive_ms": kept, "new_connection_ms": fresh, "ratio_new_over_kept": fresh / kept}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--engine", default="dynamodb-local", choices=("dynamodb-local", "moto"))
    args = parser.parse_args()
    results: dict[str, Any] = {"connections": args.connections, "seconds": args.seconds,
                               "engine": args.engine}
    with bindery(args.engine) as port:
        space = seed(port)
        path = f"/v1/spaces/{space}"
        results["one_client"] = one_client(port, path, 200)
        autocannon(f"http://127.0.0.1:{port}{path}", args.connections, 2)  # warm every environment
        results["bindery"] = autocannon(f"http://127.0.0.1:{port}{path}", args.connections, args.seconds)
    with prism("/spaces/{spaceId}", "get") as prism_port:
        url = f"http://127.0.0.1:{prism_port}/spaces/{space}"
        autocannon(url, args.connections, 2)
        results["prism"] = autocannon(url, args.connections, args.seconds)
    results["bindery_over_prism_rps"] = results["bindery"]["rps"] / max(results["prism"]["rps"], 1e-9)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    b, p, one = results["bindery"], results["prism"], results["one_client"]
    print(f"GET space, {args.connections} kept-alive connections, {args.seconds} s, engine {args.engine}")
    print(f"{'':10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'failed':>7}")
    for name, row in (("Bindery", b), ("Prism", p)):
        print(f"{name:10} {row['rps']:8.0f} {row['p50_ms']:8.1f} {row['p99_ms']:8.1f} {row['failed']:7.0f}")
    print(f"Bindery ÷ Prism (req/s): {results['bindery_over_prism_rps']:.2f}")
    print(f"One client, median: kept alive {one['keep_alive_ms']:.1f} ms, new connection "
          f"{one['new_connection_ms']:.1f} ms (new ÷ kept {one['ratio_new_over_kept']:.2f})")


if __name__ == "__main__":
    main()
