"""GET space, GET page and list change requests through the whole request path, in CPU per call, against
their floors measured in the same run: what Bindery's code adds above its own DynamoDB requests.

    python -m bench.route_overhead_bench [--engine dynamodb-local] [--calls 300] [--groups 50]
                                         [--change-requests 30] [--profile]

The spaces are the ones `bench.load` reads: the 5,000-page handbook (bench/content.py: 50 groups of 100
pages), committed with `commit_revision`, and a 100-page space with `--change-requests` (30) open change
requests, each editing one page through `POST CR/content`. Then, in interleaved rounds, each measured with
`time.process_time()`:

- **GET space**, **GET page**, **list change requests**: `GET /spaces/{spaceId}`,
  `GET /spaces/{spaceId}/content/page/{pageId}` and `GET /spaces/{spaceId}/change-requests`, the
  function's Lambda handler (template.yaml's) called with the REST proxy event API Gateway sends (built
  once by local.gateway, with the authorizer's answer for the caller, as API Gateway caches it):
  Powertools' resolver and validation, the domain, the wire models, logs and metrics, the JSON answer;
- **floor**: the requests GET space and GET page need on this stack and nothing else, as
  bench/floor_handlers.py makes them (a consistent `GetItem` of the space, one consistent
  `BatchGetItem` of the caller's membership and the organization), through the same boto3 handles. (A
  warm GET page reads nothing else: the revision, its tree and the document are immutable and cached
  per process.)
- **list floor**: list change requests' requests made bare: the same two, then the `Query` of GSI1 for
  the space's open change requests (newest first, 100 at most) and the `BatchGetItem` of the users they
  name.

On DynamoDB Local (the default) the engine runs in its own process, so the process's CPU is what an
execution environment spends. `--profile` prints cProfile's top entries for each route
instead of measuring (to stderr; the profiles are saved beside the results). Results go to
bench/results/route_overhead.json (git-ignored).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from boto3.dynamodb.conditions import Key as KeyCondition  # noqa: E402

from bench.content import GROUPS, ContentFixture, commit_handbook  # noqa: E402
from bench.environment import ENGINES, in_process_aws, set_environment  # noqa: E402
from bench.handler_calls import authorizer_answer, handler_call  # noqa: E402
from bindery import keys  # noqa: E402
from bindery.keys import change_requests as cr_keys  # noqa: E402
from bindery.platform import aws  # noqa: E402
from bindery.platform.aws import counting_requests  # noqa: E402
from bindery.platform.config import settings  # noqa: E402
from tests.client import ApiClient, Identity  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "route_overhead.json"
CHANGE_REQUEST_PAGES = 100  # the change requests' space, as bench.load's merges space
# Each route's floor: the same DynamoDB requests, made bare.
FLOORS = {"GET space": "floor", "GET page": "floor", "list change requests": "list floor"}


def _floor(space_id: str, org_id: str, user_id: str) -> Callable[[], object]:
    table, client, name = aws.dynamodb_table(), aws.dynamodb_client(), settings().table_name
    batch: dict[str, Any] = {name: {"Keys": [keys.member(org_id, user_id), keys.org(org_id)],
                                    "ConsistentRead": True}}

    def requests() -> None:
        table.get_item(Key=keys.space(space_id), ConsistentRead=True)
        client.batch_get_item(RequestItems=batch)

    return requests


def _list_floor(space_id: str, org_id: str, user_id: str) -> Callable[[], object]:
    """List change requests' requests: the floor's two, the space's open change requests (GSI1, newest
    first, a page of 100: what the route reads) and the users they name, as bench/floor_handlers.py and
    Bindery's store make them."""
    access, table, client = _floor(space_id, org_id, user_id), aws.dynamodb_table(), aws.dynamodb_client()
    name, partition = settings().table_name, cr_keys.space_status_partition(space_id, "open")

    def requests() -> None:
        access()
        page = table.query(IndexName="GSI1", KeyConditionExpression=KeyCondition("GSI1PK").eq(partition),
                           ScanIndexForward=False, Limit=100)
        named = sorted({str(item[field]) for item in page["Items"] for field in ("createdBy", "mergedBy")
                        if item.get(field)})
        client.batch_get_item(RequestItems={name: {"Keys": [keys.user(uid) for uid in named],
                                                   "ConsistentRead": True}})

    return requests


def seed_change_requests(api: ApiClient, who: Identity, count: int) -> str:
    """A 100-page space with `count` open change requests, each editing one page's title through
    `POST CR/content`, as bench.load seeds its merges' space."""
    created = api.post(f"/orgs/{who.org_id}/spaces", body={"title": "Merges"}, token=who.token)
    space_id = str(created.json()["id"])
    commit_handbook(space_id, groups=1, pages_per_group=CHANGE_REQUEST_PAGES)
    base = f"/spaces/{space_id}/change-requests"
    for number in range(count):
        change_request = api.post(base, body={"subject": f"Edit {number}"}, token=who.token).json()
        edit = {"operation": "update_page", "page": f"page{number % CHANGE_REQUEST_PAGES:05d}",
                "title": f"Edited {number}"}
        edited = api.post(f"{base}/{change_request['id']}/content", body={"changes": [edit]}, token=who.token)
        if edited.status >= 300:
            raise RuntimeError(f"editing change request {number} answered {edited.status}")
    return space_id


def operations(api: ApiClient, who: Identity, fixture: ContentFixture,
               change_requests_space: str) -> dict[str, Callable[[], object]]:
    """GET space, GET page (the fixture's page), list change requests (of `change_requests_space`) and
    their floors, each a call to measure."""
    assert who.org_id is not None
    authorizer = authorizer_answer(api, who)
    space, listed = f"/spaces/{fixture.space_id}", f"/spaces/{change_requests_space}"
    return {"GET space": handler_call(api, authorizer, space),
            "GET page": handler_call(api, authorizer, f"{space}/content/page/{fixture.page_id}"),
            "list change requests": handler_call(api, authorizer, f"{listed}/change-requests"),
            "floor": _floor(fixture.space_id, who.org_id, who.user_id),
            "list floor": _list_floor(change_requests_space, who.org_id, who.user_id)}


def _cpu(call: Callable[[], object]) -> float:
    started = time.process_time()
    call()
    return time.process_time() - started


def measure(calls: dict[str, Callable[[], object]], rounds: int, warmup: int) -> dict[str, Any]:
    for _ in range(warmup):
        for call in calls.values():
            call()
    requests = {}
    for name, call in calls.items():
        with counting_requests() as counted:
            call()
        requests[name] = dict(counted)
    spent = dict.fromkeys(calls, 0.0)
    for _ in range(rounds):
        for name, call in calls.items():
            spent[name] += _cpu(call)
    cpu = {name: total / max(rounds, 1) * 1000 for name, total in spent.items()}
    return {"rounds": rounds, "cpu ms": cpu,
            "÷ floor": {name: value / cpu[FLOORS[name]] for name, value in cpu.items()
                        if name in FLOORS and cpu[FLOORS[name]]},
            "requests": requests}


def profile(calls: dict[str, Callable[[], object]], rounds: int, top: int) -> None:
    for name, call in calls.items():
        if name not in FLOORS:
            continue
        for _ in range(20):
            call()
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(rounds):
            call()
        profiler.disable()
        RESULTS.parent.mkdir(exist_ok=True)
        profiler.dump_stats(str(RESULTS.with_name(f"route_overhead_{name.replace(' ', '_')}.prof")))
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(top)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=ENGINES, default="dynamodb-local")
    parser.add_argument("--calls", type=int, default=300, help="timed rounds")
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--groups", type=int, default=GROUPS, help="groups of 100 pages (50: 5,000)")
    parser.add_argument("--change-requests", type=int, default=30, help="open change requests listed")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top entries instead")
    parser.add_argument("--top", type=int, default=60)
    args = parser.parse_args(argv)
    # Metrics on, as deployed: each invocation flushes its one EMF line. (With them off, as bench.load's
    # runner has them, Powertools never flushes and formats a growing list of values on every add_metric,
    # which no deployed function does.)
    set_environment(POWERTOOLS_METRICS_DISABLED="false")
    # The functions' log lines and metrics are written, as on Lambda, but not to the terminal.
    with in_process_aws(args.engine), Path(os.devnull).open("w") as sink, contextlib.redirect_stdout(sink):
        api = ApiClient()
        who = api.org_admin()
        assert who.org_id is not None
        created = api.post(f"/orgs/{who.org_id}/spaces", body={"title": "Bench handbook"}, token=who.token)
        fixture = commit_handbook(created.json()["id"], groups=args.groups)
        calls = operations(api, who, fixture, seed_change_requests(api, who, args.change_requests))
        if args.profile:
            profile(calls, args.calls, args.top)
        else:
            results = {"engine": args.engine, "pages": fixture.pages,
                       **measure(calls, args.calls, args.warmup)}
    if args.profile:
        return {}
    print(f"{fixture.pages} pages, {args.engine}, {args.calls} rounds; CPU ms per call")
    for name, value in results["cpu ms"].items():
        ratio = results["÷ floor"].get(name)
        print(f"  {name:20} {value:7.2f}" + (f"   {ratio:.2f} x floor" if ratio else ""))
    print(f"DynamoDB requests: {results['requests']}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return results


if __name__ == "__main__":
    main()
