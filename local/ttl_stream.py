"""DynamoDB's TTL process and the table's stream, for the engines that have neither (moto, DynamoDB Local).

In AWS, DynamoDB deletes an item some time after its TTL attribute passes and writes a REMOVE record,
signed by the TTL service, to the table's stream; Lambda's event source mapping filters the records and
hands them to the stream's functions in batches. `sweep` does the same in process: it finds expired
items (a Scan, as the TTL process itself reads the whole table: this is the emulated service, never a
request path), deletes each one unless it was renewed meanwhile, and delivers the REMOVE records to every
function template.yaml subscribes to the stream, with the subscription's filter, batch size and retries.

    python -m local.ttl_stream        # one sweep against the configured table (BINDERY_TABLE, endpoint)

The local runner sweeps every SWEEP_SECONDS on a background thread; tests call `sweep()` after moving
`bindery.platform.clock` past an expiry.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from boto3.dynamodb.conditions import Attr

from bindery.platform import clock
from bindery.platform.aws import dynamodb_table
from local.lambda_runtime import Handler, WorkerContext, load_handler
from local.stream_records import matches, removal_record, stream_subscriptions
from local.template import Template, load, ttl_attribute

SWEEP_SECONDS = 60


@dataclass
class StreamConsumer:
    """A function subscribed to the table's stream (an event of type DynamoDB in template.yaml)."""

    function: str
    handler: Handler
    batch_size: int = 100
    retries: int = 0
    patterns: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class SweepResult:
    removed: list[dict[str, str]]  # keys of the items the sweep deleted
    invocations: int  # handler calls, retries included
    dead: list[dict[str, Any]]  # records still failing after the subscription's last retry


def stream_consumers(template: Template) -> list[StreamConsumer]:
    consumers = []
    for name, props in stream_subscriptions(template).items():
        filters = (props.get("FilterCriteria") or {}).get("Filters", [])
        consumers.append(StreamConsumer(
            function=name, handler=load_handler(template.functions[name]),
            batch_size=int(props.get("BatchSize", 100)),
            retries=int(props.get("MaximumRetryAttempts", 0)),
            patterns=[json.loads(entry["Pattern"]) for entry in filters]))
    return consumers


def remove_expired() -> list[dict[str, str]]:
    """Delete every item whose TTL has passed; the keys deleted (an item renewed meanwhile is kept)."""
    attribute = ttl_attribute()
    if attribute is None:
        return []
    now = int(clock.now().timestamp())
    table, removed = dynamodb_table(), []
    request: dict[str, Any] = {"FilterExpression": Attr(attribute).lte(now), "ProjectionExpression": "PK, SK"}
    while True:
        page = table.scan(**request)
        for item in page.get("Items", []):
            key = {"PK": str(item["PK"]), "SK": str(item["SK"])}
            try:
                table.delete_item(Key=key, ConditionExpression=Attr(attribute).lte(now))
            except table.meta.client.exceptions.ConditionalCheckFailedException:
                continue
            removed.append(key)
        if "LastEvaluatedKey" not in page:
            return removed
        request["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def deliver(consumer: StreamConsumer, records: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """Hand the records the consumer's filter passes to its handler in batches; a batch item failure is
    retried from that record on, as Lambda does for streams, until the subscription's retries run out.
    The number of invocations and the records that never succeeded."""
    pending = [record for record in records if not consumer.patterns
               or any(matches(pattern, record) for pattern in consumer.patterns)]
    invocations, dead = 0, []
    while pending:
        batch, pending = pending[:consumer.batch_size], pending[consumer.batch_size:]
        attempts = 0
        while batch:
            invocations += 1
            try:
                response = consumer.handler({"Records": batch}, WorkerContext(consumer.function)) or {}
            except Exception:  # noqa: BLE001 - a function error: Lambda retries the whole batch
                response = {"batchItemFailures": [{"itemIdentifier": batch[0]["dynamodb"]["SequenceNumber"]}]}
            failed = {entry["itemIdentifier"] for entry in response.get("batchItemFailures", [])}
            first = next((i for i, r in enumerate(batch) if r["dynamodb"]["SequenceNumber"] in failed), None)
            if first is None:
                break
            attempts += 1
            if attempts > consumer.retries:
                dead.extend(batch[first:])
                break
            batch = batch[first:]
    return invocations, dead


def sweep(template: Template | None = None) -> SweepResult:
    template = template or load()
    removed = remove_expired()
    at = int(clock.now().timestamp())
    records = [removal_record(key, number, at=at) for number, key in enumerate(removed, start=1)]
    invocations, dead = 0, []
    for consumer in stream_consumers(template):
        calls, failed = deliver(consumer, records)
        invocations += calls
        dead.extend(failed)
    return SweepResult(removed, invocations, dead)


class Sweeper:
    """The local runner's TTL process: a daemon thread sweeping every `interval` seconds under `lock`."""

    def __init__(self, lock: AbstractContextManager[Any], interval: float = SWEEP_SECONDS,
                 report: Callable[[str], None] = lambda line: print(line, file=sys.stderr)) -> None:
        self.lock, self.interval, self.report = lock, interval, report
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="ttl-sweep")

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                with self.lock:
                    result = sweep()
            except Exception as error:  # noqa: BLE001 - the sweeper must outlive one bad round
                self.report(f"TTL sweep failed: {error}")
                continue
            if result.dead:
                self.report(f"TTL sweep: {len(result.dead)} stream records failed after every retry")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


if __name__ == "__main__":
    outcome = sweep()
    print(f"removed {len(outcome.removed)} expired items; {outcome.invocations} stream invocations; "
          f"{len(outcome.dead)} records failed")
    sys.exit(1 if outcome.dead else 0)
