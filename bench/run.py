"""Micro-benchmark: a few API operations through the in-process gateway, against moto, in one process.

    python -m bench.run [--iterations 200] [--warmup 20] [--orgs 3]
    python bench/run.py

For each operation: the median latency and the DynamoDB requests it makes, each as a ratio against a
baseline measured in the same run (one bare GetItem through the same boto3 client). Results go to
bench/results/latest.json; bench/README.md explains how to read them.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):  # `python bench/run.py` as well as `python -m bench.run`
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.content import ContentFixture, content_operations, seed_content  # noqa: E402
from bench.environment import in_process_aws, set_environment  # noqa: E402
from bench.sites import SiteFixture, seed_site, site_operations  # noqa: E402
from bindery import keys  # noqa: E402
from bindery.platform import aws  # noqa: E402
from bindery.platform.aws import counting_requests  # noqa: E402
from bindery.platform.config import settings  # noqa: E402
from tests.client import ApiClient, Identity  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "latest.json"
MAX_ITERATIONS = 5_000
BASELINE = "baseline: GetItem"


@dataclass
class Fixture:
    who: Identity
    org_id: str
    content: ContentFixture
    site: SiteFixture


@dataclass
class Operation:
    name: str
    call: Callable[[], Any]


@dataclass
class Measurement:
    name: str
    iterations: int
    median_us: float
    p90_us: float
    requests: dict[str, int]  # DynamoDB requests of one call, by operation
    requests_total: int
    latency_ratio: float = 1.0
    requests_ratio: float = 1.0


def seed(api: ApiClient, orgs: int = 3) -> Fixture:
    """A user who administers `orgs` organizations (GET /orgs lists them all), a space of 5,000 pages and
    a published site of 50 sections x 5 site spaces in the first one."""
    from bindery.platform import admin

    who = api.org_admin("Bench", "Bench Org 1")
    assert who.org_id is not None
    for number in range(2, orgs + 1):
        admin.create_org(who.user_id, f"Bench Org {number}")
    return Fixture(who, who.org_id, seed_content(api, who, who.org_id), seed_site(api, who, who.org_id))


def operations(api: ApiClient, fixture: Fixture) -> list[Operation]:
    token, org_id = fixture.who.token, fixture.org_id
    client, table = aws.dynamodb_client(), settings().table_name

    def baseline() -> Any:
        return client.get_item(TableName=table, Key=keys.org(org_id), ConsistentRead=True)

    def api_call(path: str) -> Callable[[], Any]:
        def call() -> Any:
            reply = api.get(path, token=token)
            if reply.status != 200:
                raise RuntimeError(f"GET {path} answered {reply.status}: {reply.body[:200]!r}")
            return reply
        return call

    return [
        Operation(BASELINE, baseline),
        Operation("GET /orgs/{organizationId}", api_call(f"/orgs/{org_id}")),
        Operation("GET /orgs", api_call("/orgs")),
        Operation("GET /user", api_call("/user")),
        *(Operation(name, call) for name, call in content_operations(fixture.content, api_call)),
        *(Operation(name, call) for name, call in site_operations(fixture.site, api_call)),
    ]


# --- measuring ------------------------------------------------------------------------------------
def requests_of(operation: Operation) -> dict[str, int]:
    with counting_requests() as counts:
        operation.call()
    return dict(sorted(counts.items()))


def measure(api: ApiClient, fixture: Fixture, iterations: int = 200, warmup: int = 20) -> list[Measurement]:
    """Every operation, timed in interleaved rounds (one call of each per round, so drift in the
    machine's speed affects all alike), then the ratios against the baseline (the first one)."""
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be between 1 and {MAX_ITERATIONS}")
    ops = operations(api, fixture)
    for operation in ops:
        for _ in range(warmup):
            operation.call()
    per_call = [requests_of(operation) for operation in ops]
    samples: list[list[int]] = [[] for _ in ops]
    gc.collect()
    gc.disable()  # a collection landing in one sample is noise, not the operation's cost
    try:
        with counting_requests() as during:
            for _ in range(iterations):
                for operation, timings in zip(ops, samples, strict=True):
                    started = time.perf_counter_ns()
                    operation.call()
                    timings.append(time.perf_counter_ns() - started)
    finally:
        gc.enable()
    expected: dict[str, int] = {}
    for counts in per_call:
        for name, number in counts.items():
            expected[name] = expected.get(name, 0) + number * iterations
    if during != expected:  # every call must cost the same, or "requests per call" means nothing
        raise RuntimeError(f"DynamoDB requests vary between calls: {during}, expected {expected}")
    results = []
    for operation, counts, timings in zip(ops, per_call, samples, strict=True):
        timings.sort()
        results.append(Measurement(
            name=operation.name, iterations=iterations,
            median_us=round(statistics.median(timings) / 1000, 1),
            p90_us=round(timings[min(len(timings) - 1, int(len(timings) * 0.9))] / 1000, 1),
            requests=counts, requests_total=sum(counts.values()),
        ))
    base = results[0]
    for result in results:
        result.latency_ratio = round(result.median_us / base.median_us, 2) if base.median_us else 0.0
        result.requests_ratio = round(result.requests_total / base.requests_total, 2)
    return results


def report(results: list[Measurement], iterations: int, warmup: int) -> dict[str, Any]:
    import moto

    return {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "engine": f"moto {moto.__version__} (in process)",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "iterations": iterations,
        "warmup": warmup,
        "baseline": BASELINE,
        "operations": [asdict(result) for result in results],
    }


def table_text(results: list[Measurement]) -> str:
    header = ("operation", "median µs", "p90 µs", "latency ratio", "requests", "requests ratio",
              "by operation")
    rows = [(r.name, f"{r.median_us:.1f}", f"{r.p90_us:.1f}", f"{r.latency_ratio:.2f}", str(r.requests_total),
             f"{r.requests_ratio:.2f}", ", ".join(f"{k} {v}" for k, v in r.requests.items()))
            for r in results]
    width = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width[i]) if i in (0, 6) else cell.rjust(width[i])
                       for i, cell in enumerate(row)).rstrip() for row in [header, *rows]]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=200,
                        help=f"timed calls per operation (1..{MAX_ITERATIONS})")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls first (imports, caches)")
    parser.add_argument("--orgs", type=int, default=3, help="organizations the benchmark user belongs to")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if not 1 <= args.iterations <= MAX_ITERATIONS:
        parser.error(f"--iterations must be between 1 and {MAX_ITERATIONS}")
    set_environment()
    with in_process_aws():
        api = ApiClient()
        fixture = seed(api, args.orgs)
        results = measure(api, fixture, args.iterations, args.warmup)
    document = report(results, args.iterations, args.warmup)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(document, indent=2) + "\n")
    print(table_text(results))
    shown = args.output.relative_to(ROOT) if args.output.resolve().is_relative_to(ROOT) else args.output
    print(f"\n{args.iterations} timed calls per operation after {args.warmup} warm-up calls; wrote {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
