"""SQS in process: the template's queues, and delivery of their messages to the worker functions as
Lambda's SQS event source mapping does it.

template.yaml is the source of truth: each `AWS::SQS::Queue` is created (its VisibilityTimeout and
RedrivePolicy — dead-letter queue, maxReceiveCount — included), every global environment variable that
`!Ref`s a queue is set to that queue's URL, and each function's `Type: SQS` event (queue, BatchSize,
ReportBatchItemFailures) becomes an `EventSource`. Functions send with the real SQS API
(`bindery.platform.queues` through `bindery.platform.aws.sqs_client()`), against moto's SQS here.

Delivery, as Lambda does it: receive up to BatchSize messages, hand them to the handler as one SQS event,
delete those that succeeded; with ReportBatchItemFailures the ids in `batchItemFailures` stay (without
it, or when the handler raises, the whole batch stays). A message that stays is made visible again at
once (Lambda would wait for the visibility timeout), and SQS itself moves it to the dead-letter queue
once it has been received maxReceiveCount times.

`Deliveries` runs this on a background thread per event source for the local runner, long-polling
(`POLL_SECONDS`); tests call `deliver_available` directly, which returns once the queues are empty: no
thread, no sleeps.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from local.lambda_runtime import Handler, WorkerContext, load_handler
from local.template import Template, load

if TYPE_CHECKING:
    from mypy_boto3_sqs.client import SQSClient

# The runner's delivery threads long-poll as Lambda's event source mapping does, 20 s (SQS's most): each
# poll is a ReceiveMessage through the SQS emulation, so polling every second cost the idle runner ~40 ms
# of CPU a second. stop() does not wait for a poll to end, only for a delivery in progress.
POLL_SECONDS = 20
MAX_ROUNDS = 100  # deliver_available: a bound on redeliveries, far above any maxReceiveCount


@dataclass(frozen=True)
class QueueSpec:
    name: str  # logical id in the template
    visibility_timeout: int | None
    dead_letter_queue: str | None
    max_receive_count: int | None


@dataclass(frozen=True)
class EventSource:
    function: str
    queue: str
    batch_size: int
    report_failures: bool


def _ref(value: Any) -> str | None:
    """The logical id a `!Ref X` or `!GetAtt X.Arn` names."""
    if isinstance(value, dict) and "Ref" in value:
        return str(value["Ref"])
    if isinstance(value, dict) and "Fn::GetAtt" in value:
        target = value["Fn::GetAtt"]
        return str(target.split(".")[0] if isinstance(target, str) else target[0])
    return None


def queue_specs(template: Template) -> dict[str, QueueSpec]:
    specs: dict[str, QueueSpec] = {}
    for name, resource in template.raw["Resources"].items():
        if resource["Type"] != "AWS::SQS::Queue":
            continue
        props = resource.get("Properties") or {}
        redrive = props.get("RedrivePolicy") or {}
        specs[name] = QueueSpec(
            name, props.get("VisibilityTimeout"), _ref(redrive.get("deadLetterTargetArn")),
            int(redrive["maxReceiveCount"]) if "maxReceiveCount" in redrive else None)
    return specs


def event_sources(template: Template) -> list[EventSource]:
    sources: list[EventSource] = []
    for name, resource in template.raw["Resources"].items():
        if resource["Type"] != "AWS::Serverless::Function":
            continue
        for event in ((resource.get("Properties") or {}).get("Events") or {}).values():
            if event["Type"] != "SQS":
                continue
            props = event["Properties"]
            queue = _ref(props["Queue"])
            assert queue is not None, f"{name}: an SQS event names its queue with !GetAtt"
            reports = "ReportBatchItemFailures" in (props.get("FunctionResponseTypes") or [])
            sources.append(EventSource(name, queue, int(props.get("BatchSize", 10)), reports))
    return sources


def queue_environment(template: Template) -> dict[str, str]:
    """Global environment variable → the logical id of the queue it `!Ref`s."""
    variables = (((template.raw.get("Globals") or {}).get("Function") or {}).get("Environment") or {})
    specs = queue_specs(template)
    return {env: ref for env, value in (variables.get("Variables") or {}).items()
            if (ref := _ref(value)) in specs}


@dataclass(frozen=True)
class Queue:
    url: str
    arn: str


def create_queues(sqs: SQSClient, template: Template, prefix: str) -> dict[str, Queue]:
    """Every queue of the template (dead-letter queues first, since redrive policies name them)."""
    specs = queue_specs(template)
    created: dict[str, Queue] = {}
    for spec in sorted(specs.values(), key=lambda s: s.dead_letter_queue is not None):
        attributes: dict[Any, str] = {}  # QueueAttributeName literals
        if spec.visibility_timeout is not None:
            attributes["VisibilityTimeout"] = str(spec.visibility_timeout)
        if spec.dead_letter_queue is not None:
            attributes["RedrivePolicy"] = json.dumps({
                "deadLetterTargetArn": created[spec.dead_letter_queue].arn,
                "maxReceiveCount": spec.max_receive_count})
        url = sqs.create_queue(QueueName=f"{prefix}{spec.name}", Attributes=attributes)["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        created[spec.name] = Queue(url, arn)
    return created


# --- events -----------------------------------------------------------------------------------------------
def sqs_record(message: dict[str, Any], queue_arn: str, region: str = "us-east-1") -> dict[str, Any]:
    """One record of an SQS event, from a ReceiveMessage message (received with every attribute)."""
    body = message["Body"]
    return {
        "messageId": message["MessageId"],
        "receiptHandle": message["ReceiptHandle"],
        "body": body,
        "attributes": dict(message.get("Attributes") or {}),
        "messageAttributes": dict(message.get("MessageAttributes") or {}),
        "md5OfBody": message.get("MD5OfBody") or hashlib.md5(body.encode()).hexdigest(),  # noqa: S324
        "eventSource": "aws:sqs",
        "eventSourceARN": queue_arn,
        "awsRegion": region,
    }


def sqs_event(messages: list[dict[str, Any]], queue_arn: str, region: str = "us-east-1") -> dict[str, Any]:
    return {"Records": [sqs_record(message, queue_arn, region) for message in messages]}


# --- delivery ---------------------------------------------------------------------------------------------
@dataclass
class Delivery:
    """One event source wired to its queue and handler."""

    source: EventSource
    queue: Queue
    handler: Handler
    region: str = "us-east-1"
    dead_letters: list[str] = field(default_factory=list)
    # The handler's own CPU (its thread's, so neither the polling around it nor other threads), summed
    # over its invocations: what the worker function would run on Lambda, apart from the queue emulation.
    invocations: int = 0
    cpu_seconds: float = 0.0

    def receive(self, sqs: SQSClient, wait_seconds: int = 0) -> list[dict[str, Any]]:
        response = sqs.receive_message(QueueUrl=self.queue.url, MaxNumberOfMessages=self.source.batch_size,
                                       WaitTimeSeconds=wait_seconds, AttributeNames=["All"],
                                       MessageAttributeNames=["All"])
        return [dict(message) for message in response.get("Messages") or []]

    def deliver(self, sqs: SQSClient, messages: list[dict[str, Any]]) -> set[str]:
        """Invoke the handler with one event of `messages`; the ids of those that failed (left in the
        queue, visible again at once)."""
        event = sqs_event(messages, self.queue.arn, self.region)
        started = time.thread_time()
        try:
            result = self.handler(event, WorkerContext(self.source.function))
        except Exception:  # noqa: BLE001 - Lambda retries the whole batch when the function fails
            failed = {message["MessageId"] for message in messages}
        else:
            reported = (result or {}).get("batchItemFailures") or [] if self.source.report_failures else []
            failed = {entry["itemIdentifier"] for entry in reported}
        finally:
            self.invocations += 1
            self.cpu_seconds += time.thread_time() - started
        for message in messages:
            if message["MessageId"] in failed:
                sqs.change_message_visibility(QueueUrl=self.queue.url, ReceiptHandle=message["ReceiptHandle"],
                                              VisibilityTimeout=0)
            else:
                sqs.delete_message(QueueUrl=self.queue.url, ReceiptHandle=message["ReceiptHandle"])
        return failed


def deliveries(template: Template, queues: dict[str, Queue], region: str = "us-east-1") -> list[Delivery]:
    return [Delivery(source, queues[source.queue], load_handler(template.functions[source.function]), region)
            for source in event_sources(template)]


def deliver_available(sqs: SQSClient, wired: list[Delivery],
                      lock: AbstractContextManager[Any] | None = None) -> int:
    """Deliver until every queue is empty (failed messages come back until SQS dead-letters them); the
    number of handler invocations."""
    invocations = 0
    for _ in range(MAX_ROUNDS):
        delivered = False
        for delivery in wired:
            messages = delivery.receive(sqs)
            if messages:
                with lock or nullcontext():
                    delivery.deliver(sqs, messages)
                invocations += 1
                delivered = True
        if not delivered:
            return invocations
    raise RuntimeError(f"queues still not empty after {MAX_ROUNDS} rounds of delivery")


class Deliveries:
    """The local runner's delivery: one daemon thread per event source, long-polling its queue and
    invoking the handler under `lock` (the runner handles one event at a time, like one warm Lambda)."""

    def __init__(self, sqs: SQSClient, wired: list[Delivery], lock: AbstractContextManager[Any], *,
                 usage_file: Path | None = None) -> None:
        self.sqs, self.wired, self.lock = sqs, wired, lock
        self.usage_file = usage_file  # rewritten after each invocation: bench.load reads the workers' CPU
        self._stop = threading.Event()
        self._writing = threading.Lock()

    def usage(self) -> dict[str, dict[str, float]]:
        """Per worker function, its invocations so far and its handlers' CPU seconds."""
        totals: dict[str, dict[str, float]] = {}
        for delivery in self.wired:
            used = totals.setdefault(delivery.source.function, {"invocations": 0, "cpu_seconds": 0.0})
            used["invocations"] += delivery.invocations
            used["cpu_seconds"] += delivery.cpu_seconds
        return totals

    def record_usage(self) -> None:
        """Writes `usage()` to `usage_file` (when there is one), whole or not at all."""
        if self.usage_file is None:
            return
        with self._writing:
            partial = self.usage_file.with_name(self.usage_file.name + ".partial")
            partial.write_text(json.dumps(self.usage()))
            partial.replace(self.usage_file)  # a reader never sees half a file

    def start(self) -> None:
        for delivery in self.wired:
            threading.Thread(target=self._poll, args=(delivery,), daemon=True,
                             name=f"sqs-{delivery.source.function}").start()

    def _poll(self, delivery: Delivery) -> None:
        while not self._stop.is_set():
            try:
                messages = delivery.receive(self.sqs, POLL_SECONDS)
                if messages:
                    with self.lock:
                        if self._stop.is_set():
                            # Stopping: they stay in the queue and come back after their visibility
                            # timeout, as when Lambda stops polling between a receive and an invocation.
                            return
                        delivery.deliver(self.sqs, messages)
                    self.record_usage()
            except Exception as error:  # noqa: BLE001 - a delivery thread must outlive one bad round
                if not self._stop.is_set():
                    print(f"SQS delivery to {delivery.source.function} failed: {error}", file=sys.stderr)
                    self._stop.wait(1)

    def stop(self) -> None:
        """No delivery starts after this returns, and none is in progress; a thread still in its long
        poll ends with it (daemon threads: they never hold up the process's exit)."""
        self._stop.set()
        with self.lock:  # a delivery in progress holds it: it still needs its table and queues
            pass


def start_local(sqs: SQSClient, lock: AbstractContextManager[Any], *, prefix: str = "bindery-",
                region: str = "us-east-1", template: Template | None = None,
                usage_file: Path | None = None) -> tuple[dict[str, str], Deliveries]:
    """Create the queues, wire the event sources and start delivering: the environment variables to set
    (queue URLs) and the running deliveries (`usage_file`: where they keep their workers' CPU)."""
    template = template or load()
    queues = create_queues(sqs, template, prefix)
    environment = {env: queues[ref].url for env, ref in queue_environment(template).items()}
    running = Deliveries(sqs, deliveries(template, queues, region), lock, usage_file=usage_file)
    return environment, running


def start_sqs_server() -> tuple[str, Callable[[], None]]:
    """moto's SQS on a loopback port, in this process (for engines that bring no SQS of their own)."""
    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # it would log every SQS call (each poll)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    return f"http://{host}:{port}", server.stop
