"""Load benchmark: `make run` under concurrent clients, against its own stack's floor and a stateless mock.

    python -m bench.load [--seconds 8] [--connections 64] [--engine dynamodb-local] [--merges 30]

Starts the local runner (`python -m local.server`, a fresh data directory) with the bench's bare handlers
beside template.yaml's functions (bench/floor_handlers.py: for each operation, the DynamoDB requests its
access pattern needs and nothing else, served by the same server, gateway and execution environments
under /v1/floor/...), seeds it, then starts Stoplight Prism mocking the official spec
(tests/reference/...: example data, no state); both tools come from bench/load/ (`npm ci` there:
autocannon, Prism). Each operation is measured on Bindery, on its floor and on Prism in this run:

- GET space; GET a page of a 5,000-page space; search that space; list a space's change requests: each
  with `--connections` kept-alive clients (autocannon), after a warm-up of half as long (at least 4 s:
  every execution environment imports its function then);
- merge a change request: one client merging `--merges` change requests in a row (a merge cannot be
  repeated, so no load generator can replay it); the floor merges as many of its own, in a space seeded
  the same way;
- GET space from one client, kept alive vs a new connection per request (Bindery): ≥ 1 means no
  keep-alive stall.

It also reads CPU times (/proc) over each measurement: the milliseconds of CPU one request costs in the
runner's HTTP server, its execution environments and its engine, and in Prism. Unlike requests per
second, these barely move when other work shares the machine; Bindery ÷ floor of environments + engine
is the figure to watch. The load average before and after the run is recorded beside the results.
Results go to bench/results/load.json (bench/cost.py prices them); bench/README.md shows the latest table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
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
    prewarm,
    prism,
    request,
    sequential,
    settle,
)

RESULTS = ROOT / "bench" / "results" / "load.json"
MERGE_PAGES = 100  # the merges' space: one group of this many pages, one page edited per change request


@dataclass(frozen=True)
class Operation:
    name: str
    method: str
    spec_path: str  # the official spec's path: what Prism mocks
    bindery_paths: list[str]  # one: a load generator repeats it; several: each once, in order
    floor_paths: list[str]  # the same operation's bare handler (bench/floor_handlers.py)
    prism_path: str
    sizing_path: str  # one more floor call that reports the capacity units its requests consumed


@dataclass(frozen=True)
class Seeded:
    space: str  # a space with nothing in it
    handbook: str  # 5,000 pages
    page: str  # a page in its middle
    merges: str  # the space of the change requests Bindery merges
    change_requests: list[str]
    floor_merges: str  # a space seeded the same way, whose change requests the floor merges
    floor_change_requests: list[str]
    sizing_change_request: str  # one more there, merged once to read a merge's capacity units


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
    from bindery.platform import aws
    from bindery.platform.config import settings

    settings.cache_clear()
    aws.reset()
    return commit_handbook(space_id, groups, pages_per_group).page_id


def _change_requests(conn: http.client.HTTPConnection, space_id: str, count: int) -> list[str]:
    """`count` open change requests, each editing one page's title through `POST CR/content`."""
    created_ids = []
    for number in range(count):
        base = f"/v1/spaces/{space_id}/change-requests"
        created = request(conn, "POST", base, {"subject": f"Edit {number}"})
        edit = {"operation": "update_page", "page": f"page{number % MERGE_PAGES:05d}",
                "title": f"Edited {number}"}
        request(conn, "POST", f"{base}/{created['id']}/content", {"changes": [edit]})
        created_ids.append(str(created["id"]))
    return created_ids


def seed(runner: Runner, merges: int) -> Seeded:
    conn = http.client.HTTPConnection("127.0.0.1", runner.port, timeout=120)

    def space(title: str) -> str:
        return str(request(conn, "POST", f"/v1/orgs/{org_id}/spaces", {"title": title})["id"])

    org_id = request(conn, "GET", "/v1/orgs")["items"][0]["id"]
    empty, handbook, merging, floor_merging = space("Load"), space("Handbook"), space("Merges"), \
        space("Floor merges")
    page = _seed_content(runner, handbook, 50, 100)
    for target in (merging, floor_merging):
        _seed_content(runner, target, 1, MERGE_PAGES)
    *floor_change_requests, sizing = _change_requests(conn, floor_merging, merges + 1)
    seeded = Seeded(empty, handbook, page, merging, _change_requests(conn, merging, merges),
                    floor_merging, floor_change_requests, sizing)
    conn.close()
    return seeded


def operations(seeded: Seeded) -> list[Operation]:
    crs = f"/spaces/{seeded.merges}/change-requests"
    floor_crs = f"/floor/spaces/{seeded.floor_merges}/change-requests"
    page = f"/spaces/{seeded.handbook}/content/page/{seeded.page}"
    search = f"/spaces/{seeded.handbook}/search?query=installation"
    space = f"/spaces/{seeded.space}"

    def sized(path: str) -> str:
        return path + ("&" if "?" in path else "?") + "capacity=total"

    return [
        Operation("GET space", "GET", "/spaces/{spaceId}", [f"/v1{space}"], [f"/v1/floor{space}"], space,
                  sized(f"/v1/floor{space}")),
        Operation("GET page (5,000 pages)", "GET", "/spaces/{spaceId}/content/page/{pageId}", [f"/v1{page}"],
                  [f"/v1/floor{page}"], page, sized(f"/v1/floor{page}")),
        Operation("search (5,000 pages)", "GET", "/spaces/{spaceId}/search", [f"/v1{search}"],
                  [f"/v1/floor{search}"], search, sized(f"/v1/floor{search}")),
        Operation("list change requests", "GET", "/spaces/{spaceId}/change-requests", [f"/v1{crs}"],
                  [f"/v1/floor{crs}"], crs, sized(f"/v1/floor{crs}")),
        Operation("merge a change request", "POST",
                  "/spaces/{spaceId}/change-requests/{changeRequestId}/merge",
                  [f"/v1{crs}/{cr}/merge" for cr in seeded.change_requests],
                  [f"/v1{floor_crs}/{cr}/merge" for cr in seeded.floor_change_requests],
                  f"{crs}/{seeded.change_requests[0]}/merge",
                  sized(f"/v1{floor_crs}/{seeded.sizing_change_request}/merge")),
    ]


def measure(method: str, paths: list[str], port: int, connections: int, seconds: int, *,
            cpu: Callable[[], dict[str, float]], quiet: Callable[[], object] = dict) -> dict[str, float]:
    """One operation against one server: several paths are requested once each by one client; one path
    by `connections` clients for `seconds` after a warm-up. Adds the CPU milliseconds per request of each
    role `cpu` reads (the runner's, or Prism's) over the measurement, which starts once `quiet` says the
    server is idle and, for one-shot operations, ends once it is idle again (the work they queued done)."""
    url = f"http://127.0.0.1:{port}"
    run: Callable[[], dict[str, float]]
    if len(paths) > 1:
        run = lambda: sequential(port, method, paths)  # noqa: E731
    else:
        # every environment warm (imports, caches), then a warm-up under load
        prewarm(port, method, paths[0])
        autocannon(url + paths[0], connections, max(4, seconds // 2), method)
        run = lambda: autocannon(url + paths[0], connections, seconds, method)  # noqa: E731
    quiet()
    before = cpu()
    result = run()
    if len(paths) > 1:
        quiet()
    if before:
        after = cpu()
        for role, seconds_before in before.items():
            result[f"cpu_ms_{role}"] = (after[role] - seconds_before) * 1000 / max(result["requests"], 1)
    return result


def capacity(port: int, operation: Operation) -> dict[str, float]:
    """The read and write capacity units one call's requests consumed, as the engine counts them from the
    items' sizes and the reads' consistency (bench/cost.py prices them)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        used: dict[str, float] = request(conn, operation.method, operation.sizing_path)["capacity"]
    finally:
        conn.close()
    return used


def work_ms(measured: dict[str, float]) -> float:
    """CPU milliseconds per request in the execution environments and the engine: what the operation's
    own code and its requests cost (the HTTP server is the same for Bindery and its floor, and it runs
    the queue deliveries a merge triggers)."""
    return measured.get("cpu_ms_environments", float("nan")) + measured.get("cpu_ms_engine", float("nan"))


def compare(row: dict[str, Any]) -> dict[str, Any]:
    b, f, p = row["bindery"], row["floor"], row["prism"]
    row["ratio"] = p and b["rps"] / max(p["rps"], 1e-9)
    row["floor_ratio"] = {"rps": b["rps"] / max(f["rps"], 1e-9), "cpu": work_ms(b) / work_ms(f)}
    return row


def report(results: dict[str, Any]) -> None:
    print(f"{results['connections']} kept-alive connections (merges: one client), {results['seconds']} s, "
          f"engine {results['engine']}, load average {results['load_before']} before, "
          f"{results['load_after']} after")
    print(f"{'operation':<26}{'Bindery req/s':>14}{'p50':>7}{'p99':>7}{'floor req/s':>12}{'÷ floor':>8}"
          f"{'Prism req/s':>12}{'÷ Prism':>8}   CPU ms/request, environments + engine: Bindery, floor, "
          f"÷ floor; server; Prism")
    for name, row in results["operations"].items():
        b, f, p = row["bindery"], row["floor"], row["prism"]
        peer = f"{p['rps']:>12.0f}{row['ratio']:>8.2f}" if p else f"{'—':>12}{'—':>8}"
        nan = float("nan")
        cpu = (f"{work_ms(b):.1f}, {work_ms(f):.1f}, {row['floor_ratio']['cpu']:.2f}; "
               f"{b.get('cpu_ms_server', nan):.1f} (floor {f.get('cpu_ms_server', nan):.1f}); "
               f"{(p or {}).get('cpu_ms_prism', nan):.1f}")
        failed = b["failed"] + f["failed"] + (p["failed"] if p else 0)
        print(f"{name:<26}{b['rps']:>14.0f}{b['p50_ms']:>7.0f}{b['p99_ms']:>7.0f}{f['rps']:>12.0f}"
              f"{row['floor_ratio']['rps']:>8.2f}{peer}   {cpu}"
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
                               "engine": args.engine, "load_before": _load_average(), "operations": {}}
    with bindery(args.engine, bench_functions="bench.floor_handlers") as runner:
        seeded = seed(runner, args.merges)
        chosen = operations(seeded)
        results["one_client"] = one_client(runner.port, chosen[0].bindery_paths[0], 200)
        runner_cpu, idle = partial(cpu_by_role, runner.pid), partial(settle, runner.pid)
        # Each operation on Bindery, its floor, then Prism, one after the other: the machine's load
        # changes over minutes.
        for operation in chosen:
            row: dict[str, Any] = {
                "bindery": measure(operation.method, operation.bindery_paths, runner.port, args.connections,
                                   args.seconds, cpu=runner_cpu, quiet=idle),
                "floor": measure(operation.method, operation.floor_paths, runner.port, args.connections,
                                 args.seconds, cpu=runner_cpu, quiet=idle),
                "capacity": capacity(runner.port, operation)}
            # Prism keeps no state: a merge is the same one, as many times.
            mocked = [operation.prism_path] * len(operation.bindery_paths)
            with prism((operation.spec_path, operation.method.lower())) as peer:
                row["prism"] = None if peer is None else measure(
                    operation.method, mocked, peer[0], args.connections, args.seconds,
                    cpu=partial(cpu_of_tree, peer[1]))
            results["operations"][operation.name] = compare(row)
    results["load_after"] = _load_average()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    report(results)


def _load_average() -> list[float]:
    """The 1-, 5- and 15-minute load averages: how busy the shared machine was."""
    return [round(value, 1) for value in os.getloadavg()]


if __name__ == "__main__":
    main()
