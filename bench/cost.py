"""Production cost on paper: what a million calls of each operation bench.load measures would cost on AWS.

    python -m bench.cost [bench/results/load.json]

From the latest load run: the CPU milliseconds an execution environment spent per call (Bindery's
column), the read and write capacity units the operation's requests consumed (DynamoDB Local's
`ConsumedCapacity` for the floor's identical requests on the same items, bench/floor_handlers.py), and
for a merge the CPU of the work it queues (the worker's handler, as the runner measures it). Priced with
`PRICES` (us-east-1, on-demand; the date they were taken is in `Prices.as_of`) at the memory template.yaml
gives each function. Prints a Markdown table (bench/README.md and docs/deploy.md show the latest).

Lambda's billed duration is estimated, not measured: the environment's CPU stretched by the share of a
vCPU Lambda allocates at the function's memory (a whole one at 1,769 MB, proportionally less below),
plus one network round trip per DynamoDB request (`ROUND_TRIP_MS`), rounded up to Lambda's 1 ms
granularity. The authorizer is priced apart: API Gateway caches its answer per token for 60 s, so a
client's repeated calls pay it once a minute, not per call.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from local.template import load  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "load.json"
FULL_VCPU_MB = 1769  # Lambda allocates CPU in proportion to memory: one full vCPU at 1,769 MB
ROUND_TRIP_MS = 4.0  # one DynamoDB request from Lambda in the same region (assumed: single-digit ms)


@dataclass(frozen=True)
class Prices:
    """USD, us-east-1, on-demand, from AWS's public price pages (not re-checked here: this workplace has
    no network to them)."""

    as_of: str = "AWS list prices for us-east-1 as of 2025 (DynamoDB on-demand after the November 2024 cut)"
    api_rest_per_million: float = 3.50  # REST API calls, first 333 million a month
    lambda_requests_per_million: float = 0.20
    lambda_gb_second: float = 0.0000133334  # arm64 (template.yaml's default Architecture)
    read_units_per_million: float = 0.125  # on-demand read request units
    write_units_per_million: float = 0.625  # on-demand write request units
    s3_put_per_million: float = 5.00
    s3_get_per_million: float = 0.40
    sqs_per_million: float = 0.40  # standard queue requests, per 64 KB chunk


PRICES = Prices()


@dataclass(frozen=True)
class Queued:
    """Work an operation queues, run by a worker function after the call: its SQS requests (send,
    receive, delete), S3 PUTs and GETs."""

    function: str
    sqs_requests: int
    s3_puts: int
    s3_gets: int = 0


@dataclass(frozen=True)
class Operation:
    name: str  # as bench.load names it
    function: str  # template.yaml's function that serves it
    requests: dict[str, int]  # Bindery's DynamoDB requests per call, authorizer answer cached
    queued: Queued | None = None


SPACE_AND_ACCESS = {"GetItem": 1, "BatchGetItem": 1}
OPERATIONS = [
    Operation("GET space", "SpacesFunction", SPACE_AND_ACCESS),
    Operation("GET page (5,000 pages)", "ContentFunction", SPACE_AND_ACCESS),
    # the index pointer is remembered per revision after its first search (docs/search.md)
    Operation("search (5,000 pages)", "SearchFunction", SPACE_AND_ACCESS),
    # the users the page names in a second BatchGetItem (bench.route_overhead_bench pins the four)
    Operation("list change requests", "ChangeRequestsFunction",
              {"GetItem": 1, "BatchGetItem": 2, "Query": 1}),
    # the same requests as its floor (tests/api/change_requests/test_change_request_merges.py pins them)
    Operation("merge a change request", "ChangeRequestsFunction",
              {"GetItem": 4, "BatchGetItem": 1, "BatchWriteItem": 1, "PutItem": 1, "TransactWriteItems": 1,
               "Query": 1},
              # SendMessage, then the event source mapping's ReceiveMessage and DeleteMessage; the new
              # revision's search index built from the parent's (one GET, docs/search.md) and PUT
              queued=Queued("SearchIndexWorker", sqs_requests=3, s3_puts=1, s3_gets=1)),
]


def memory_mb(function: str) -> int:
    """The function's MemorySize in template.yaml, else the Globals' one."""
    raw = load().raw
    own = raw["Resources"][function]["Properties"].get("MemorySize")
    return int(own if own is not None else raw["Globals"]["Function"]["MemorySize"])


def billed_ms(cpu_ms: float, memory: int, round_trips: int) -> int:
    """Lambda's billed duration of one call: CPU at the vCPU share of `memory`, plus the round trips."""
    share = min(1.0, memory / FULL_VCPU_MB)
    return math.ceil(cpu_ms / share + round_trips * ROUND_TRIP_MS)


def lambda_per_million(milliseconds: int, memory: int, prices: Prices = PRICES) -> float:
    """USD for a million invocations of `milliseconds` billed at `memory` MB."""
    gb_seconds = milliseconds / 1000 * memory / 1024
    return prices.lambda_requests_per_million + gb_seconds * prices.lambda_gb_second * 1_000_000


@dataclass(frozen=True)
class Cost:
    """USD per million calls, by service, and what they were computed from."""

    billed_ms: int
    memory: int
    read_units: float
    write_units: float
    api: float
    function: float
    dynamodb: float
    queued: float
    worker_ms: int | None = None

    @property
    def total(self) -> float:
        return self.api + self.function + self.dynamodb + self.queued


def price(operation: Operation, row: dict[str, Any], prices: Prices = PRICES) -> Cost:
    """One operation's cost per million calls from its row of bench/results/load.json."""
    memory = memory_mb(operation.function)
    measured = row["bindery"]
    ms = billed_ms(measured["cpu_ms_environments"], memory, sum(operation.requests.values()))
    reads = row["capacity"]["read"]
    writes = row["capacity"]["write"]
    dynamodb = reads * prices.read_units_per_million + writes * prices.write_units_per_million
    queued, worker_ms = 0.0, None
    if operation.queued is not None:
        # The queue deliveries run in the runner's process, beside moto's SQS and the HTTP server: since
        # session 39 bench.load reads the workers' handlers' own CPU; older runs only had the runner's
        # CPU above the floor's, which also counts the SQS emulation.
        work = measured["cpu_ms_workers"] if "cpu_ms_workers" in measured else \
            max(0.0, measured["cpu_ms_server"] - row["floor"]["cpu_ms_server"])
        worker_memory = memory_mb(operation.queued.function)
        worker_ms = billed_ms(work, worker_memory, 0)
        queued = (lambda_per_million(worker_ms, worker_memory, prices)
                  + operation.queued.sqs_requests * prices.sqs_per_million
                  + operation.queued.s3_puts * prices.s3_put_per_million
                  + operation.queued.s3_gets * prices.s3_get_per_million)
    return Cost(ms, memory, reads, writes, prices.api_rest_per_million,
                lambda_per_million(ms, memory, prices), dynamodb, queued, worker_ms)


def authorizer(row: dict[str, Any], prices: Prices = PRICES) -> Cost:
    """A call whose token API Gateway has not cached (a client's first call in 60 s): the authorizer's
    invocation and its GetItem (eventually consistent, under 4 KB: half a read unit). Its CPU is taken
    as half the GET space floor's (one request of two, no route, no model): not measured apart."""
    memory = memory_mb("AuthorizerFunction")
    ms = billed_ms(row["floor"]["cpu_ms_environments"] / 2, memory, 1)
    return Cost(ms, memory, 0.5, 0.0, 0.0, lambda_per_million(ms, memory, prices),
                0.5 * prices.read_units_per_million, 0.0)


def table(results: dict[str, Any], prices: Prices = PRICES) -> str:
    lines = ["| operation | DynamoDB requests | RRU | WRU | env CPU ms | Lambda MB | billed ms "
             "| API Gateway | Lambda | DynamoDB | queued work | **per million** |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for operation in OPERATIONS:
        row = results["operations"].get(operation.name)
        if row is None or "capacity" not in row:
            continue
        cost = price(operation, row, prices)
        requests = ", ".join(f"{count} {name}" for name, count in operation.requests.items())
        queued = (f"${cost.queued:.2f} ({cost.worker_ms} ms)" if cost.worker_ms is not None else "—")
        lines.append(f"| {operation.name} | {requests} | {cost.read_units:g} | {cost.write_units:g} "
                     f"| {row['bindery']['cpu_ms_environments']:.1f} | {cost.memory} | {cost.billed_ms} "
                     f"| ${cost.api:.2f} | ${cost.function:.2f} | ${cost.dynamodb:.2f} | {queued} "
                     f"| **${cost.total:.2f}** |")
    space = results["operations"].get("GET space")
    if space is not None:
        miss = authorizer(space, prices)
        cpu = space["floor"]["cpu_ms_environments"] / 2
        lines.append(f"| + authorizer, token not cached | 1 GetItem | 0.5 | 0 | {cpu:.1f} | {miss.memory} "
                     f"| {miss.billed_ms} | — | ${miss.function:.2f} | ${miss.dynamodb:.2f} | — "
                     f"| **${miss.total:.2f}** |")
    return "\n".join(lines)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS
    print(f"Prices: {PRICES.as_of}; {ROUND_TRIP_MS:g} ms per DynamoDB round trip; "
          f"a full vCPU at {FULL_VCPU_MB} MB")
    print(table(json.loads(path.read_text())))


if __name__ == "__main__":
    main()
