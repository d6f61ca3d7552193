"""Lazily created AWS handles: nothing connects at import time, and each process makes each once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bindery.config import settings

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient
    from mypy_boto3_dynamodb.service_resource import Table
    from mypy_boto3_s3.client import S3Client
    from mypy_boto3_sqs.client import SQSClient


# botocore's standard retry mode: throttling (ProvisionedThroughputExceeded, SlowDown…), 5xx answers and
# dropped connections are retried with jittered exponential backoff, up to this many attempts in all, and
# a per-client retry quota stops retry storms when a service keeps failing. What still fails after that
# reaches the caller as a 503 with Retry-After (bindery.errors.unavailable). Three attempts keep a request
# well inside API Gateway's 29 s even with throttling backoff (at most 1 s + 2 s of waiting).
MAX_ATTEMPTS = 3


def _kwargs(endpoint: str | None) -> dict[str, Any]:
    from botocore.config import Config

    conf = settings()
    kwargs: dict[str, Any] = {
        "region_name": conf.region,
        "config": Config(retries={"mode": "standard", "total_max_attempts": MAX_ATTEMPTS}),
    }
    if endpoint:
        kwargs["endpoint_url"] = endpoint
    return kwargs


@lru_cache(maxsize=1)
def dynamodb_table() -> Table:
    import boto3  # imported here: boto3 is heavy, and a cold start that needs no table should not pay for it

    resource = boto3.resource("dynamodb", **_kwargs(settings().dynamodb_endpoint))
    return resource.Table(settings().table_name)


def dynamodb_client() -> DynamoDBClient:
    """The client behind the table resource: it serialises Python values, transactions included."""
    return dynamodb_table().meta.client


@lru_cache(maxsize=1)
def s3_client() -> S3Client:
    import boto3

    return boto3.client("s3", **_kwargs(settings().s3_endpoint))


@lru_cache(maxsize=1)
def sqs_client() -> SQSClient:
    import boto3

    return boto3.client("sqs", **_kwargs(settings().sqs_endpoint))


def reset() -> None:
    """Forget every handle (tests switch endpoints and tables between runs)."""
    dynamodb_table.cache_clear()
    s3_client.cache_clear()
    sqs_client.cache_clear()
    settings.cache_clear()


@contextmanager
def counting_requests(service: str = "dynamodb") -> Iterator[dict[str, int]]:
    """Requests by operation name, counted on the client this module hands out for `service`
    ("dynamodb", "s3" or "sqs"): the per-invocation metric (bindery.observability), the tests' request
    budgets and the benchmarks all count with this. Creates the client if it does not exist yet."""
    counts: dict[str, int] = {}

    def count(event_name: str, **_: Any) -> None:
        operation = event_name.rsplit(".", 1)[-1]
        counts[operation] = counts.get(operation, 0) + 1

    clients: dict[str, Callable[[], Any]] = {"dynamodb": dynamodb_client, "s3": s3_client, "sqs": sqs_client}
    events = clients[service]().meta.events
    events.register(f"before-call.{service}", count)
    try:
        yield counts
    finally:
        events.unregister(f"before-call.{service}", count)
