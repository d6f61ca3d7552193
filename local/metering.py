"""Counting DynamoDB requests, for the tests' request budgets and the benchmarks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bindery import aws


@contextmanager
def counting_requests(service: str = "dynamodb") -> Iterator[dict[str, int]]:
    """Requests by operation name, counted on the client the bindery package uses for `service`
    ("dynamodb", "s3" or "sqs")."""
    counts: dict[str, int] = {}

    def count(event_name: str, **_: Any) -> None:
        operation = event_name.rsplit(".", 1)[-1]
        counts[operation] = counts.get(operation, 0) + 1

    clients: dict[str, Callable[[], Any]] = {
        "dynamodb": aws.dynamodb_client, "s3": aws.s3_client, "sqs": aws.sqs_client}
    events = clients[service]().meta.events
    events.register(f"before-call.{service}", count)
    try:
        yield counts
    finally:
        events.unregister(f"before-call.{service}", count)
