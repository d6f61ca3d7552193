"""Load benchmark: `make run` under concurrent clients, against a stateless mock of the same operations.

    python -m bench.load [--seconds 8] [--connections 64] [--engine dynamodb-local] [--merges 30]

Starts the local runner (`python -m local.server`, a fresh data directory), seeds it, then starts
Stoplight Prism mocking the official spec (tests/reference/...: it returns example data and keeps no
state, the ceiling of what an HTTP server of the contract can do here); both tools come from bench/load/
(`npm ci` there: autocannon, Prism). Each operation is measured on both in this run:

- GET space; GET a page of a 5,000-page space; search that space; list a space's change requests: each
  with `--connections` kept-alive clients (autocannon), after a warm-up of half as long (at least 4 s:
  every execution environment imports its function then);
- merge a change request: one client merging `--merges` change requests in a row (a merge cannot be
  repeated, so no load generator can replay it);
- GET space from one client, kept alive vs a new connection per request (Bindery): ≥ 1 means no
  keep-alive stall.

It also reads CPU times (/proc) over each measurement: the milliseconds of CPU one request costs in the
runner's HTTP server, its execution environments and its engine, and in Prism. Unlike requests per
second, these barely move when other work shares the machine.
Results go to bench/results/load.json; bench/README.md shows the latest table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT / "layers" / "shared", ROOT):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.load_servers import (  # noqa: E402
    Runner,
    autocannon,
    bindery,
    cpu_by_role,
    cpu_of_tree,
    one_client,
    prism,
    request,
    sequential,
)

RESULTS = ROOT / "bench" / "results" / "load.json"
MERGE_PAGES = 100  # the merges' space: one group of this many pages, one page edited per change request


@dataclass(frozen=True)
class Operation:
    name: str
    method: str
    spec_path: str  # the official spec's path: what Prism mocks
    bindery_paths: list[str]  # one: a load generator repeats it; several: each once, in order
    prism_path: str


@dataclass(frozen=True)
class Seeded:
    space: str  # a space with nothing in it
    handbook: str  # 5,000 pages
    page: str  # a page in its middle
    merges: str  # the space of the change requests
    change_requests: list[str]


def _seed_content(runner: Runner, space_id: str, groups: int, pages_per_group: int) -> str:
    """Pages committed with the domain primitives bench/run.py uses, through the runner's own table and
    blob store (what the workers would write); the id of a page in the middle."""
    os.environ.update(BINDERY_DYNAMODB_ENDPOINT=runner.dynamodb_endpoint, AWS_ACCESS_KEY_ID="local",
                      AWS_SECRET_ACCESS_KEY="local", AWS_DEFAULT_REGION="us-east-1")  # noqa: S106
    if runner.blob_dir:
        os.environ["BINDERY_BLOB_DIR"] = runner.blob_dir
    else:
        os.environ["BINDERY_S3_ENDPOINT"] = str(runner.s3_endpoint)
    from bench.content import commit_handbook
    from bindery import aws
    from bindery.config import settings

    settings.cache_clear()
    aws.reset()
    return commit_handbook(space_id, groups, pages_per_group).page_id


def seed(runner: Runner, merges: int) -> Seeded:
    conn = http.client.HTTPConnection("127.0.0.1", runner.port, timeout=120)

    def space(title: str) -> str:
        return str(request(conn, "POST", f"/v1/orgs/{org_id}/spaces", {"title": title})["id"])

    org_id = request(conn, "GET", "/v1/orgs")["items"][0]["id"]
    empty, handbook, merging = space("Load"), space("Handbook"), space("Merges")
    page = _seed_content(runner, handbook, 50, 100)
    _seed_content(runner, merging, 1, MERGE_PAGES)
    change_requests = []
    for number in range(merges):
        base = f"/v1/spaces/{merging}/change-requests"
        created = request(conn, "POST", base, {"subject": f"Edit {number}"})
        edit = {"operation": "update_page", "page": f"page{number % MERGE_PAGES:05d}",
                "title": f"Edited {number}"}
        request(conn, "POST", f"{base}/{created['id']}/content", {"changes": [edit]})
        change_requests.append(str(created["id"]))
    conn.close()
    return Seeded(empty, handbook, page, merging, change_requests)


def operations(seeded: Seeded) -> list[Operation]:
    crs = f"/spaces/{seeded.merges}/change-requests"
    page = f"/spaces/{seeded.handbook}/content/page/{seeded.page}"
    search = f"/spaces/{seeded.handbook}/search?query=installation"
    return [
        Operation("GET space", "GET", "/spaces/{spaceId}", [f"/v1/spaces/{seeded.space}"],
                  f"/spaces/{seeded.space}"),
        Operation("GET page (5,000 pages)", "GET", "/spaces/{spaceId}/content/page/{pageId}", [f"/v1{page}"],
                  page),
        Operation("search (5,000 pages)", "GET", "/spaces/{spaceId}/search", [f"/v1{search}"], search),
        Operation("list change requests", "GET", "/spaces/{spaceId}/change-requests", [f"/v1{crs}"], crs),
        Operation("merge a change request", "POST",
                  "/spaces/{spaceId}/change-requests/{changeRequestId}/merge",
                  [f"/v1{crs}/{cr}/merge" for cr in seeded.change_requests],
                  f"{crs}/{seeded.change_requests[0]}/merge"),
    ]


def measure(operation: Operation, port: int, connections: int, seconds: int,
            *, runner_pid: int | None = None, prism_pid: int | None = None) -> dict[str, float]:
    """One operation against one server (a warm-up first), and the CPU milliseconds per request of each
    of the runner's roles (`runner_pid`) or of Prism (`prism_pid`) over the measurement."""
    url = f"http://127.0.0.1:{port}"
    run: Callable[[], dict[str, float]]
    if len(operation.bindery_paths) > 1 and runner_pid is not None:
        run = lambda: sequential(port, operation.method, operation.bindery_paths)  # noqa: E731
    elif len(operation.bindery_paths) > 1:  # Prism keeps no state: the same merge, as many times
        run = lambda: sequential(port, operation.method,  # noqa: E731
                                 [operation.prism_path] * len(operation.bindery_paths))
    else:
        path = operation.bindery_paths[0] if runner_pid is not None else operation.prism_path
        # warm-up: long enough for every execution environment to import its function (a cold start)
        autocannon(url + path, connections, max(4, seconds // 2), operation.method)
        run = lambda: autocannon(url + path, connections, seconds, operation.method)  # noqa: E731
    cpu: Callable[[], dict[str, float]] = (
        (lambda: cpu_by_role(runner_pid)) if runner_pid is not None
        else (lambda: cpu_of_tree(prism_pid)) if prism_pid is not None else dict)
    before = cpu()
    result = run()
    if before:
        after = cpu()
        for role, seconds_before in before.items():
            result[f"cpu_ms_{role}"] = (after[role] - seconds_before) * 1000 / max(result["requests"], 1)
    return result


def report(results: dict[str, Any]) -> None:
    print(f"{results['connections']} kept-alive connections (merges: one client), {results['seconds']} s, "
          f"engine {results['engine']}")
    print(f"{'operation':<26}{'Bindery req/s':>14}{'p50':>7}{'p99':>7}{'Prism req/s':>12}{'p50':>7}{'p99':>7}"
          f"{'ratio':>7}   CPU ms/request: Bindery (server + environments + engine), Prism")
    for name, row in results["operations"].items():
        b, p = row["bindery"], row["prism"]
        roles = [b.get(f"cpu_ms_{role}", float("nan")) for role in ("server", "environments", "engine")]
        cpu = (f"{sum(roles):.1f} ({' + '.join(f'{ms:.1f}' for ms in roles)}), "
               f"{(p or {}).get('cpu_ms_prism', float('nan')):.1f}")
        peer = (f"{p['rps']:>12.0f}{p['p50_ms']:>7.0f}{p['p99_ms']:>7.0f}{row['ratio']:>7.2f}" if p
                else f"{'(Prism does not start on it)':>40}")
        failed = b["failed"] + (p["failed"] if p else 0)
        print(f"{name:<26}{b['rps']:>14.0f}{b['p50_ms']:>7.0f}{b['p99_ms']:>7.0f}{peer}   {cpu}"
              + (f"  ({failed:.0f} failed)" if failed else ""))
    one = results["one_client"]
    print(f"One client, GET space, median: kept alive {one['keep_alive_ms']:.1f} ms, new connection "
          f"{one['new_connection_ms']:.1f} ms (new ÷ kept {one['ratio_new_over_kept']:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--merges", type=int, default=30)
    parser.add_argument("--engine", default="dynamodb-local", choices=("dynamodb-local", "moto"))
    args = parser.parse_args()
    results: dict[str, Any] = {"connections": args.connections, "seconds": args.seconds,
                               "engine": args.engine, "operations": {}}
    with bindery(args.engine) as runner:
        seeded = seed(runner, args.merges)
        chosen = operations(seeded)
        results["one_client"] = one_client(runner.port, chosen[0].bindery_paths[0], 200)
        # Each operation on Bindery then at once on Prism: the machine's load changes over minutes.
        for operation in chosen:
            row: dict[str, Any] = {"bindery": measure(operation, runner.port, args.connections, args.seconds,
                                                      runner_pid=runner.pid)}
            with prism((operation.spec_path, operation.method.lower())) as peer:
                row["prism"] = None if peer is None else measure(operation, peer[0], args.connections,
                                                                 args.seconds, prism_pid=peer[1])
            row["ratio"] = row["prism"] and row["bindery"]["rps"] / max(row["prism"]["rps"], 1e-9)
            results["operations"][operation.name] = row
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    report(results)


if __name__ == "__main__":
    main()
