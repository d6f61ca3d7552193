"""Counting DynamoDB requests, for the tests' request budgets and the benchmarks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bindery import aws


@contextmanager
def counting_requests() -> Iterator[dict[str, int]]:
    """DynamoDB requests by operation name, counted on the client the bindery package uses."""
    counts: dict[str, int] = {}

    def count(event_name: str, **_: Any) -> None:
        operation = event_name.rsplit(".", 1)[-1]
        counts[operation] = counts.get(operation, 0) + 1

    events = aws.dynamodb_client().meta.events
    events.register("before-call.dynamodb", count)
    try:
        yield counts
    finally:
        events.unregister("before-call.dynamodb", count)
