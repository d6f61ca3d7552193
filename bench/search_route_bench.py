"""Search of the 5,000-page space through the whole request path, in CPU per query, against its floor
measured in the same run.

    python -m bench.search_route_bench [--engine dynamodb-local] [--queries 300] [--query installation]

The space is the one `bench.load` and `bench.run` read (bench/content.py: 50 groups of 100 pages, every
page mentioning "installation"), committed with `commit_revision`; its first search builds the index in
the request (no queue in process). Then, in rounds, each measured with `time.process_time()`:

- **route**: `GET /spaces/{spaceId}/search?query=…`, the search function's Lambda handler called with
  the REST proxy event API Gateway sends (bench/handler_calls.py: built once, the authorizer's answer in
  it, as API Gateway caches it per token), as bench.route_overhead_bench calls its routes: Powertools'
  resolver and validation, the domain, the index query, the JSON answer, the logs and metrics;
- **floor**: what any implementation of the operation has to do on this stack: the DynamoDB requests
  its access pattern needs (a `GetItem` of the space, one `BatchGetItem` of the caller's membership and
  the organization), through the same boto3 client, and the bare FTS5 query that ranks the first
  `limit` pages with bm25 on the same index file.

Logs and metrics are as deployed (template.yaml): the "invocation done" line at INFO and one EMF line
per invocation, both written to /dev/null rather than the terminal. (Until session 40 the route went
through the in-process gateway, whose route matching and event building API Gateway does on AWS, with
metrics off, which formats every invocation's growing list of values instead of flushing it.)

On DynamoDB Local (the default) the engine runs in its own process, so the process's CPU is what an
execution environment spends; on moto the engine's CPU is in both figures. Rounds interleave the route
and the floor, so a machine that slows down mid-run affects both. Printed: CPU ms per query of each,
the ratio, and the route's DynamoDB requests by operation (pinned by tests/search/test_route_bench.py).
Results go to bench/results/search_route.json (git-ignored).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.content import GROUPS, commit_handbook  # noqa: E402
from bench.environment import ENGINES, in_process_aws, set_environment  # noqa: E402
from bench.handler_calls import authorizer_answer, handler_call  # noqa: E402
from bindery import keys  # noqa: E402
from bindery.engines.search import storage  # noqa: E402
from bindery.engines.search.query import terms  # noqa: E402
from bindery.platform import aws  # noqa: E402
from bindery.platform.aws import counting_requests  # noqa: E402
from bindery.platform.config import settings  # noqa: E402
from bindery.store import search as search_store  # noqa: E402
from bindery.store import spaces as space_store  # noqa: E402
from tests.client import ApiClient, Identity  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "search_route.json"
LIMIT = 100  # the route's default page size: what `?query=` alone returns
RANKING = ("SELECT rowid FROM page_fts WHERE page_fts MATCH ? ORDER BY bm25(page_fts, 4.0, 2.0, 1.0) "
           "LIMIT ?")


def _floor_requests(space_id: str, org_id: str, user_id: str) -> Callable[[], None]:
    """The access pattern's DynamoDB requests, bare: the space, then its organization and the caller's
    membership of it (one BatchGetItem), as `domain.access.content.space_access` reads them."""
    table = aws.dynamodb_table()
    client = aws.dynamodb_client()
    name = settings().table_name
    batch: dict[str, Any] = {name: {"Keys": [keys.member(org_id, user_id), keys.org(org_id)],
                                    "ConsistentRead": True}}

    def requests() -> None:
        table.get_item(Key=keys.space(space_id), ConsistentRead=True)
        client.batch_get_item(RequestItems=batch)

    return requests


def _floor_query(path: Path, query: str) -> Callable[[], object]:
    """The bare ranking of the first page of results, on a connection of its own to the same file."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    match = " AND ".join(terms(query))
    return lambda: connection.execute(RANKING, (match, LIMIT)).fetchall()


@contextlib.contextmanager
def _stdout_discarded() -> Iterator[None]:
    """File descriptor 1 on /dev/null for the duration: the search function's logger is made when
    bindery.engines.search.indexing is imported, with the stdout of that moment, so replacing
    `sys.stdout` would not reach its lines."""
    sys.stdout.flush()
    kept = os.dup(1)
    sink = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(sink, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(kept, 1)
        os.close(kept)
        os.close(sink)


def _cpu(call: Callable[[], object]) -> float:
    started = time.process_time()
    call()
    return time.process_time() - started


def measure(api: ApiClient, who: Identity, space_id: str, *, query: str, queries: int,
            warmup: int) -> dict[str, Any]:
    """CPU per query of the route and of its floor, and the DynamoDB requests of each, on the space (its
    index built by the first query)."""
    assert who.org_id is not None
    route = handler_call(api, authorizer_answer(api, who), f"/spaces/{space_id}/search",
                         query=urlencode({"query": query}))
    started = time.perf_counter()
    route()  # builds the index
    built = time.perf_counter() - started
    space = space_store.get_space(space_id)
    pointer = search_store.get_index_pointer(space_id, space.revision) if space else None
    if pointer is None:
        raise RuntimeError("the first search stored no index")
    floor_requests = _floor_requests(space_id, who.org_id, who.user_id)
    floor_query = _floor_query(storage.cached_path(pointer.digest), query)
    for _ in range(warmup):
        for call in (route, floor_requests, floor_query):
            call()
    with counting_requests() as route_requests:
        route()
    with counting_requests() as bare_requests:
        floor_requests()
    spent = {"route": 0.0, "floor requests": 0.0, "floor query": 0.0}
    for _ in range(queries):
        spent["route"] += _cpu(route)
        spent["floor requests"] += _cpu(floor_requests)
        spent["floor query"] += _cpu(floor_query)
    per_query = {name: total / max(queries, 1) * 1000 for name, total in spent.items()}
    floor = per_query["floor requests"] + per_query["floor query"]
    return {"query": query, "queries": queries, "index build s": round(built, 2),
            "cpu ms": {**per_query, "floor": floor},
            "route ÷ floor": per_query["route"] / floor if floor else 0.0,
            "requests": dict(route_requests), "floor requests": dict(bare_requests)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=ENGINES, default="dynamodb-local")
    parser.add_argument("--queries", type=int, default=300, help="timed rounds")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--query", default="installation")
    parser.add_argument("--groups", type=int, default=GROUPS, help="groups of 100 pages (50: 5,000)")
    args = parser.parse_args(argv)
    # Logs and metrics as template.yaml deploys them: the "invocation done" line at INFO, one EMF line per
    # invocation (with metrics off, Powertools never flushes and formats a growing list of values on every
    # add_metric instead), written where nobody reads them rather than to the terminal.
    set_environment(POWERTOOLS_LOG_LEVEL="INFO", POWERTOOLS_METRICS_DISABLED="false")
    with in_process_aws(args.engine), _stdout_discarded():
        api = ApiClient()
        who = api.org_admin()
        created = api.post(f"/orgs/{who.org_id}/spaces", body={"title": "Bench handbook"}, token=who.token)
        fixture = commit_handbook(created.json()["id"], groups=args.groups)
        results = {"engine": args.engine, "pages": fixture.pages,
                   **measure(api, who, fixture.space_id, query=args.query, queries=args.queries,
                             warmup=args.warmup)}
    print(f"{fixture.pages} pages, ?query={args.query}, {args.engine}, {args.queries} queries "
          f"(first query, building the index: {results['index build s']:.1f} s)")
    print("CPU ms per query")
    cpu = results["cpu ms"]
    for name in ("route", "floor requests", "floor query"):
        print(f"  {name:30} {cpu[name]:8.2f}")
    print(f"  {'floor (requests + query)':30} {cpu['floor']:8.2f}")
    print(f"  {'route ÷ floor':30} {results['route ÷ floor']:8.2f}")
    print(f"DynamoDB requests: route {results['requests']}, floor {results['floor requests']}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return results


if __name__ == "__main__":
    main()
