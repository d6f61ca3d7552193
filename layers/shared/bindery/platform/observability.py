"""Logs, traces and metrics of every function: every Lambda handler is built by one of the factories
here (the API functions' by bindery.api.http.api_handler, which uses `observed`).

Each invocation gets, from Powertools:
- Logger: JSON lines with the Lambda context (function, request id, cold start) and a correlation id
  (API Gateway's `requestContext.requestId` for the API functions, the SQS message id while a worker
  handles that message), and one INFO line when the invocation ends (what it did, how long, how many
  DynamoDB requests).
- Tracer: an X-Ray subsegment for the handler and one per AWS SDK call (botocore is patched, nothing
  else: Git Sync's HTTP requests carry credentials in their URLs, which httplib's patch would record).
- Metrics (CloudWatch EMF, namespace "Bindery" unless POWERTOOLS_METRICS_NAMESPACE says otherwise):
  `Requests`, `Latency` and `DynamoDBRequests` per invocation, plus what the kind of function adds
  (`Messages`/`FailedMessages` for the workers, `Denied` for the authorizer), and Powertools' `ColdStart`.

See docs/observability.md.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled
from aws_lambda_powertools.utilities.typing import LambdaContext

from bindery.platform import aws, snapstart

if TYPE_CHECKING:  # the batch utilities cost an API function's cold start ~20 ms and only workers use them
    from aws_lambda_powertools.utilities.batch import BatchProcessor
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

NAMESPACE = "Bindery"

Event = dict[str, Any]
Handler = Callable[[Event, LambdaContext], Any]


@dataclass
class Invocation:
    """What a handler reports about one invocation, for the wrapper to log and publish. Dimensions must
    take few values (each combination is a CloudWatch metric of its own, billed monthly): a route
    template or a queue name, never an id or a concrete path."""

    dimensions: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    log_fields: dict[str, Any] = field(default_factory=dict)


@cache
def logger(service: str) -> Logger:
    return Logger(service=service)


@cache
def metrics(service: str) -> Metrics:
    # Set here rather than in template.yaml's environment so that no process (tests, the local runner,
    # a function someone deploys without the variable) fails to flush for want of a namespace.
    return Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or NAMESPACE, service=service)


@cache
def tracer(service: str) -> Tracer:
    # Built on the first invocation, not at import: constructing a Tracer imports aws_xray_sdk.core and
    # patches botocore. Under SnapStart it is built before the snapshot instead (`observed`), as a
    # module-level Tracer would be, so restored environments do not pay for it. Outside Lambda (tests,
    # the local runner) Powertools disables it.
    return Tracer(service=service, patch_modules=["botocore"])


def gateway_request_id(event: Event) -> Any:
    """API Gateway's request id in a proxy event (`requestContext.requestId`), or None: what Powertools'
    `correlation_id_path=correlation_paths.API_GATEWAY_REST` finds, read without a JMESPath search of the
    event on every invocation (a field of something that is not an object is None to JMESPath too)."""
    context = event.get("requestContext")
    return context.get("requestId") if isinstance(context, dict) else None


def observed(service: str, run: Callable[[Event, LambdaContext, Invocation], Any], *,
             correlation_id: Callable[[Event], Any] | None = None,
             before_snapshot: Callable[[], object] | None = None) -> Handler:
    """The Lambda handler that runs `run(event, context, invocation)` with logs, a trace and metrics.
    `correlation_id`: what reads the invocation's correlation id from its event (`gateway_request_id`);
    without it the log lines have none. `before_snapshot`: what the handler defers to its first
    invocations and SnapStart should do before the snapshot instead (the tracer is always built there)."""
    snapstart.register(partial(tracer, service), *([before_snapshot] if before_snapshot else []))
    log, emf = logger(service), metrics(service)

    @cache
    def traced() -> Callable[..., Any]:
        """`run` in the tracer's handler subsegment (`## handler`), wrapped on the first invocation (the
        tracer is built then, or before a SnapStart snapshot) rather than once per invocation."""

        def handler(event: Event, context: LambdaContext, invocation: Invocation) -> Any:
            return run(event, context, invocation)

        # capture_response=False: responses are page contents and tokens' owners, not trace metadata.
        wrapped: Callable[..., Any] = tracer(service).capture_lambda_handler(handler, capture_response=False)
        return wrapped

    # The correlation id is set below, first thing inside both decorators, as `inject_lambda_context`
    # would set it from a `correlation_id_path` (after clearing the keys, before anything logs).
    @log.inject_lambda_context(log_event=False, clear_state=True)
    # Powertools prints the ColdStart metric even where metrics are disabled (the local runner): asked
    # for only where the others are published.
    @emf.log_metrics(capture_cold_start_metric=not is_metrics_disabled())
    def lambda_handler(event: Event, context: LambdaContext) -> Any:
        if correlation_id is not None:
            log.set_correlation_id(correlation_id(event))
        invocation, handler = Invocation(), traced()
        started = time.perf_counter()
        with aws.counting_requests("dynamodb") as dynamodb:
            try:
                return handler(event, context, invocation=invocation)
            finally:
                _publish(log, emf, invocation, (time.perf_counter() - started) * 1000, sum(dynamodb.values()))

    typed: Handler = lambda_handler  # Powertools' decorators are untyped
    return typed


def _publish(log: Logger, emf: Metrics, invocation: Invocation, latency_ms: float, dynamodb: int) -> None:
    for name, value in invocation.dimensions.items():
        emf.add_dimension(name=name, value=value)
    emf.add_metric(name="Requests", unit=MetricUnit.Count, value=1)
    emf.add_metric(name="Latency", unit=MetricUnit.Milliseconds, value=round(latency_ms, 3))
    emf.add_metric(name="DynamoDBRequests", unit=MetricUnit.Count, value=dynamodb)
    for name, count in invocation.counts.items():
        emf.add_metric(name=name, unit=MetricUnit.Count, value=count)
    log.info("invocation done", extra={**invocation.dimensions, **invocation.log_fields,
                                       **invocation.counts, "latency_ms": round(latency_ms, 1),
                                       "dynamodb_requests": dynamodb})


def sqs_worker(service: str, record_handler: Callable[[SQSRecord], Any],
               processor: BatchProcessor) -> Handler:
    """An SQS worker's handler: Powertools' partial batch response over `record_handler`, each message
    handled with its message id as the correlation id, metrics by queue."""
    from aws_lambda_powertools.utilities.batch import process_partial_response

    log = logger(service)

    def each(record: SQSRecord) -> Any:
        log.set_correlation_id(record.message_id)
        try:
            return record_handler(record)
        finally:
            log.set_correlation_id(None)

    def run(event: Event, context: LambdaContext, invocation: Invocation) -> dict[str, Any]:
        records = event.get("Records") or []
        invocation.dimensions["queue"] = _queue_name(records)
        # Until the processor answers, every message counts as failed (it raises when all of them did).
        invocation.counts.update(Messages=len(records), FailedMessages=len(records))
        response: dict[str, Any] = dict(process_partial_response(
            event=event, record_handler=each, processor=processor, context=context))
        invocation.counts["FailedMessages"] = len(response.get("batchItemFailures") or [])
        return response

    return observed(service, run)


def _queue_name(records: list[dict[str, Any]]) -> str:
    # One event source mapping per worker, so one queue per batch; its name ends the queue's ARN.
    arn = str(records[0].get("eventSourceARN") or "") if records else ""
    return arn.rsplit(":", 1)[-1] or "unknown"
