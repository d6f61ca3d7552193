"""Load benchmark: `make run` under concurrent clients, against its own stack's floor and a stateless mock.

    python -m bench.load [--seconds 8] [--connections 64] [--engine dynamodb-local] [--merges 30]
                         [--rounds 3] [--only space page search list merge] [--no-prism]

Starts the local runner (`python -m local.server`, a fresh data directory) with the bench's bare handlers
beside template.yaml's functions (bench/floor_handlers.py: for each operation, the DynamoDB requests its
access pattern needs and nothing else, served by the same server, gateway and execution environments
under /v1/floor/...), seeds it once, then measures each operation's Bindery and floor back to back in
`--rounds` rounds, the side going first alternating (bench/load_rounds.py): a ratio is only as good as
the minutes it was measured in, so the table reports each round's ratio and their median and spread.
Stoplight Prism mocks the official spec (tests/reference/...: example data, no state) in the first
round only (`--no-prism`: never); both tools come from bench/load/ (`npm ci` there: autocannon, Prism).

- GET space; GET a page of a 5,000-page space; search that space; list a space's change requests: each
  with `--connections` kept-alive clients (autocannon), after a warm-up of half as long (at least 4 s:
  every execution environment imports its function then);
- merge a change request: one client merging `--merges` change requests in a row per round (a merge
  cannot be repeated, so no load generator can replay it), after one untimed merge on each side; the
  floor merges as many of its own, in a space seeded the same way;
- GET space from one client, kept alive vs a new connection per request (Bindery): ≥ 1 means no
  keep-alive stall.

It also reads CPU times (/proc) over each measurement: the milliseconds of CPU one request costs in the
runner's HTTP server, its execution environments and its engine, and in Prism. The runner's own process
also runs moto's SQS and the queue deliveries: the worker handlers' own CPU (a merge's search indexing,
what a deployed stack's workers run) is read apart (BINDERY_BENCH_WORKER_CPU) and reported as the queued
work, the rest of the runner's CPU as the emulation (HTTP server, SQS, polling: AWS's side). Bindery ÷
floor of environments + engine is the headline; the load average before and after goes with the results.
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

from bench.load_rounds import attribute, order, report, summarize  # noqa: E402
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
    key: str  # what `--only` names it by
    name: str
    method: str
    spec_path: str  # the official spec's path: what Prism mocks
    bindery_paths: list[list[str]]  # per round: one path a load generator repeats, or several, each once
    floor_paths: list[list[str]]  # the same operation's bare handler (bench/floor_handlers.py), per round
    prism_path: str
    sizing_path: str  # one more floor call that reports the capacity units its requests consumed
    # one-shot operations: requested once before the rounds (the function's and the worker's imports and
    # caches, which a repeatable operation's warm-up pays), Bindery's then the floor's
    warmup_paths: tuple[str, ...] = ()


KEYS = ("space", "page", "search", "list", "merge")


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


def seed(runner: Runner, merges: int, rounds: int, keys: set[str]) -> list[Operation]:
    """What the chosen operations read, through the API and the runner's own table: a space with nothing
    in it; a 5,000-page space for page and search; for list, a 100-page space with `merges` open change
    requests (never merged, so every round lists as many); for merge, two 100-page spaces (Bindery's, its
    floor's) with `merges` change requests per round each, and one more for the floor's sizing call."""
    conn = http.client.HTTPConnection("127.0.0.1", runner.port, timeout=120)

    def space(title: str, groups: int = 0, pages: int = 0) -> str:
        created = str(request(conn, "POST", f"/v1/orgs/{org_id}/spaces", {"title": title})["id"])
        if groups:
            seeded_pages[created] = _seed_content(runner, created, groups, pages)
        return created

    def sized(path: str) -> str:
        return path + ("&" if "?" in path else "?") + "capacity=total"

    def each_round(path: str) -> list[list[str]]:
        return [[path]] * rounds

    org_id = request(conn, "GET", "/v1/orgs")["items"][0]["id"]
    seeded_pages: dict[str, str] = {}
    chosen: list[Operation] = []
    if "space" in keys:
        empty = f"/spaces/{space('Load')}"
        chosen.append(Operation("space", "GET space", "GET", "/spaces/{spaceId}", each_round(f"/v1{empty}"),
                                each_round(f"/v1/floor{empty}"), empty, sized(f"/v1/floor{empty}")))
    if keys & {"page", "search"}:
        handbook = space("Handbook", 50, 100)
        page = f"/spaces/{handbook}/content/page/{seeded_pages[handbook]}"
        search = f"/spaces/{handbook}/search?query=installation"
        if "page" in keys:
            chosen.append(Operation("page", "GET page (5,000 pages)", "GET",
                                    "/spaces/{spaceId}/content/page/{pageId}", each_round(f"/v1{page}"),
                                    each_round(f"/v1/floor{page}"), page, sized(f"/v1/floor{page}")))
        if "search" in keys:
            chosen.append(Operation("search", "search (5,000 pages)", "GET", "/spaces/{spaceId}/search",
                                    each_round(f"/v1{search}"), each_round(f"/v1/floor{search}"), search,
                                    sized(f"/v1/floor{search}")))
    if "list" in keys:
        listed = space("Listing", 1, MERGE_PAGES)
        _change_requests(conn, listed, merges)
        crs = f"/spaces/{listed}/change-requests"
        chosen.append(Operation("list", "list change requests", "GET", "/spaces/{spaceId}/change-requests",
                                each_round(f"/v1{crs}"), each_round(f"/v1/floor{crs}"), crs,
                                sized(f"/v1/floor{crs}")))
    if "merge" in keys:
        merging, floor_merging = space("Merges", 1, MERGE_PAGES), space("Floor merges", 1, MERGE_PAGES)
        crs = f"/spaces/{merging}/change-requests"
        floor_crs = f"/floor/spaces/{floor_merging}/change-requests"
        *mine, warm = _change_requests(conn, merging, merges * rounds + 1)
        *floors, warm_floor, sizing = _change_requests(conn, floor_merging, merges * rounds + 2)

        def per_round(base: str, ids: list[str]) -> list[list[str]]:
            return [[f"/v1{base}/{cr}/merge" for cr in ids[number * merges:(number + 1) * merges]]
                    for number in range(rounds)]

        chosen.append(Operation("merge", "merge a change request", "POST",
                                "/spaces/{spaceId}/change-requests/{changeRequestId}/merge",
                                per_round(crs, mine), per_round(floor_crs, floors), f"{crs}/{mine[0]}/merge",
                                sized(f"/v1{floor_crs}/{sizing}/merge"),
                                (f"/v1{crs}/{warm}/merge", f"/v1{floor_crs}/{warm_floor}/merge")))
    conn.close()
    return chosen


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--merges", type=int, default=30, help="change requests merged per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=KEYS, default=list(KEYS), metavar="OPERATION",
                        help=f"measure only these operations ({', '.join(KEYS)})")
    parser.add_argument("--no-prism", action="store_true", help="do not measure Prism")
    parser.add_argument("--engine", default="dynamodb-local", choices=("dynamodb-local", "moto"))
    args = parser.parse_args()
    if args.rounds < 1 or args.merges < 1:
        parser.error("--rounds and --merges must be at least 1")
    results: dict[str, Any] = {"connections": args.connections, "seconds": args.seconds,
                               "rounds": args.rounds, "merges": args.merges, "engine": args.engine,
                               "load_before": _load_average(), "operations": {}}
    with bindery(args.engine, bench_functions="bench.floor_handlers") as runner:
        chosen = seed(runner, args.merges, args.rounds, set(args.only))
        if chosen[0].key == "space":
            results["one_client"] = one_client(runner.port, chosen[0].bindery_paths[0][0], 200)
        runner_cpu = partial(cpu_by_role, runner.pid, runner.worker_cpu)
        idle = partial(settle, runner.pid)
        rounds: dict[str, list[dict[str, Any]]] = {operation.name: [] for operation in chosen}
        extra: dict[str, dict[str, Any]] = {}
        for operation in chosen:
            if operation.warmup_paths:
                sequential(runner.port, operation.method, list(operation.warmup_paths))
        idle()
        # Every operation's Bindery and floor back to back, in alternating order, round after round: a
        # ratio is then taken over the same minutes, and the median of the rounds is what is reported.
        for number in range(args.rounds):
            for operation in chosen:
                paths = {"bindery": operation.bindery_paths[number], "floor": operation.floor_paths[number]}
                measured = {side: attribute(measure(operation.method, paths[side], runner.port,
                                                    args.connections, args.seconds, cpu=runner_cpu,
                                                    quiet=idle))
                            for side in order(number)}
                rounds[operation.name].append(measured)
                if number == 0:
                    extra[operation.name] = {"capacity": capacity(runner.port, operation),
                                             "prism": None if args.no_prism else _prism(operation, args)}
        for operation in chosen:
            row = {**summarize(rounds[operation.name]), **extra[operation.name]}
            prism_rps = row["prism"] and row["prism"]["rps"]
            row["ratio"] = prism_rps and row["bindery"]["rps"] / max(prism_rps, 1e-9)
            results["operations"][operation.name] = row
    results["load_after"] = _load_average()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    report(results)


def _prism(operation: Operation, args: argparse.Namespace) -> dict[str, float] | None:
    """Prism mocking the operation, as many calls as Bindery's first round (it keeps no state: a merge
    is the same one, as many times); None when it does not start on the operation."""
    mocked = [operation.prism_path] * len(operation.bindery_paths[0])
    with prism((operation.spec_path, operation.method.lower())) as peer:
        return None if peer is None else measure(operation.method, mocked, peer[0], args.connections,
                                                 args.seconds, cpu=partial(cpu_of_tree, peer[1]))


def _load_average() -> list[float]:
    """The 1-, 5- and 15-minute load averages: how busy the shared machine was."""
    return [round(value, 1) for value in os.getloadavg()]


if __name__ == "__main__":
    main()
