"""Lazily created AWS handles: nothing connects at import time, and each process makes each once (the
DynamoDB resource once per thread: see `dynamodb_table`)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bindery.platform.config import settings

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient
    from mypy_boto3_dynamodb.service_resource import Table
    from mypy_boto3_s3.client import S3Client
    from mypy_boto3_sqs.client import SQSClient


# botocore's standard retry mode: throttling (ProvisionedThroughputExceeded, SlowDown…), 5xx answers and
# dropped connections are retried with jittered exponential backoff, up to this many attempts in all, and
# a per-client retry quota stops retry storms when a service keeps failing. What still fails after that
# reaches the caller as a 503 with Retry-After (bindery.platform.errors.unavailable). Three attempts keep a
# request well inside API Gateway's 29 s even with throttling backoff (at most 1 s + 2 s of waiting).
MAX_ATTEMPTS = 3


def _kwargs(endpoint: str | None) -> dict[str, Any]:
    from botocore.config import Config

    conf = settings()
    kwargs: dict[str, Any] = {
        "config": Config(retries={"mode": "standard", "total_max_attempts": MAX_ATTEMPTS}),
    }
    if conf.region:
        kwargs["region_name"] = conf.region
    if endpoint:
        kwargs["endpoint_url"] = endpoint
    return kwargs


# boto3's default session is not safe to make clients from in several threads at once.
_MAKING = threading.Lock()
# Threads that have had a table resource, at most (an evicted thread just makes a new one).
_THREADS = 64
# A single-item write that meets a transaction in progress on its item fails with
# TransactionConflictException, which none of botocore's retry modes retries; nothing was written, so it is
# sent again (the store's conditions are evaluated afresh). Transactions cancelled so are store.table's.
ITEM_CONFLICT_ATTEMPTS = 4
ITEM_CONFLICT_BACKOFF_SECONDS = 0.02


def _retry_item_conflict(attempts: int, response: Any = None, **_: Any) -> float | None:
    """A botocore `needs-retry` handler: the delay before sending again, or None (botocore's own rules)."""
    parsed = response[1] if response else {}
    if parsed.get("Error", {}).get("Code") != "TransactionConflictException":
        return None
    if attempts >= ITEM_CONFLICT_ATTEMPTS:
        return None
    # From os.urandom, not the `random` module: every environment SnapStart restores from one snapshot
    # holds the same `random` state, so their retries would all wait the same "random" delays.
    return secrets.SystemRandom().uniform(0, ITEM_CONFLICT_BACKOFF_SECONDS * 2 ** attempts)


@lru_cache(maxsize=_THREADS)
def _table(thread: int) -> Table:
    import boto3  # imported here: boto3 is heavy, and a cold start that needs no table should not pay for it

    with _MAKING:
        resource = boto3.resource("dynamodb", **_kwargs(settings().dynamodb_endpoint))
    # The stubs type every handler as returning None; a needs-retry handler returns its delay.
    resource.meta.client.meta.events.register("needs-retry.dynamodb",
                                              _retry_item_conflict)  # type: ignore[arg-type]
    return resource.Table(settings().table_name)


def dynamodb_table() -> Table:
    """This thread's table resource. boto3 resources are not thread-safe: the DynamoDB resource keeps one
    condition-expression builder whose placeholder counters each request resets, so two threads building
    `Key(...)`/`Attr(...)` expressions at once can hand each other's placeholders to DynamoDB. A Lambda
    environment has one thread (one resource); threads in one process (the local runner's deliveries,
    the concurrency tests) each get their own, as separate environments would."""
    return _table(threading.get_ident())


def dynamodb_client() -> DynamoDBClient:
    """The client behind this thread's table resource: it serialises Python values, transactions
    included."""
    return dynamodb_table().meta.client


@lru_cache(maxsize=1)
def s3_client() -> S3Client:
    import boto3

    with _MAKING:
        return boto3.client("s3", **_kwargs(settings().s3_endpoint))


@lru_cache(maxsize=1)
def sqs_client() -> SQSClient:
    import boto3

    with _MAKING:
        return boto3.client("sqs", **_kwargs(settings().sqs_endpoint))


def made() -> set[str]:
    """The services this process has made handles for so far, in any thread ("dynamodb", "s3", "sqs")."""
    cached = {"dynamodb": _table, "s3": s3_client, "sqs": sqs_client}
    return {name for name, function in cached.items() if function.cache_info().currsize}


@lru_cache(maxsize=1)
def kms_client() -> Any:
    """KMS, for the integration secrets' data keys (bindery.platform.secret_box); only the integrations
    function has a key to use it with. Typed loosely: the layer ships no KMS stubs for this one call site."""
    import boto3

    return boto3.client("kms", **_kwargs(None))


def reset() -> None:
    """Forget every handle (tests switch endpoints and tables between runs)."""
    _table.cache_clear()
    s3_client.cache_clear()
    sqs_client.cache_clear()
    kms_client.cache_clear()
    _request_counter.cache_clear()
    settings.cache_clear()


class _RequestCounter:
    """The one `before-call` handler of a client: it adds each request to every count open on the client
    (`counting_requests`). Registered once per client, because registering or unregistering a botocore
    handler empties the client's cache of handlers by event, which then costs every later request a
    lookup of each of its events again: per invocation (bindery.platform.observability counts every one), that
    was a tenth of a millisecond and more of each request's CPU."""

    def __init__(self) -> None:
        # The counts open now, by id: two open counts are often equal dicts (both empty), never the same.
        self.open: dict[int, dict[str, int]] = {}

    def __call__(self, event_name: str, **_: Any) -> None:
        operation = event_name.rsplit(".", 1)[-1]
        for counts in list(self.open.values()):
            counts[operation] = counts.get(operation, 0) + 1


# Clients have counters at most: a DynamoDB client per thread (`_THREADS`), the S3 and SQS ones.
@lru_cache(maxsize=2 * _THREADS)
def _request_counter(client: Any, service: str) -> _RequestCounter:
    counter = _RequestCounter()
    client.meta.events.register(f"before-call.{service}", counter)
    return counter


# S3 and SQS clients are shared by threads: one counter each, even when two threads count at once first.
_COUNTERS = threading.Lock()


@contextmanager
def counting_requests(service: str = "dynamodb") -> Iterator[dict[str, int]]:
    """Requests by operation name, counted on the client this module hands out for `service`
    ("dynamodb", "s3" or "sqs"): the per-invocation metric (bindery.platform.observability), the tests'
    request budgets and the benchmarks all count with this. Creates the client if it does not exist yet."""
    clients: dict[str, Callable[[], Any]] = {"dynamodb": dynamodb_client, "s3": s3_client, "sqs": sqs_client}
    client = clients[service]()
    with _COUNTERS:
        counter = _request_counter(client, service)
    counts: dict[str, int] = {}
    counter.open[id(counts)] = counts
    try:
        yield counts
    finally:
        del counter.open[id(counts)]
