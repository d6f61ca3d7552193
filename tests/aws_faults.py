"""Faults of AWS, injected through botocore's event system into the clients `bindery.platform.aws` hands out.

`before-call` numbers every API call of the watched clients (whatever the retries, one number per call);
`before-send` answers an attempt with a made-up error response instead of letting it reach moto (or
DynamoDB Local), so botocore parses it, and its standard retry mode judges it, exactly as it would a
real one.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from botocore.awsrequest import AWSResponse
from botocore.exceptions import ConnectionClosedError

from bindery.platform import aws

NOWHERE = "https://fault-injected.invalid/"


@dataclass(frozen=True)
class Fault:
    """An error response of `service`: its code, HTTP status, and the operations it may answer (None:
    any of the service's)."""

    name: str
    service: str
    code: str
    status: int
    operations: frozenset[str] | None = None

    def hits(self, service: str, operation: str) -> bool:
        return service == self.service and (self.operations is None or operation in self.operations)


FAULTS = {fault.name: fault for fault in (
    Fault("ddb-throughput", "dynamodb", "ProvisionedThroughputExceededException", 400),
    Fault("ddb-throttling", "dynamodb", "ThrottlingException", 400),
    Fault("ddb-internal", "dynamodb", "InternalServerError", 500),
    # No answer at all: the connection dropped before DynamoDB replied (status 0: nothing is parsed).
    Fault("ddb-dropped", "dynamodb", "ConnectionClosed", 0),
    # What DynamoDB answers a transaction that met another one (or throttling) on one of its items.
    Fault("ddb-cancelled", "dynamodb", "TransactionCanceledException", 400,
          frozenset({"TransactWriteItems"})),
    Fault("s3-slowdown", "s3", "SlowDown", 503),
    Fault("s3-internal", "s3", "InternalError", 500),
    Fault("sqs-internal", "sqs", "InternalError", 500),
)}


class _Raw(io.BytesIO):
    """The raw body botocore reads an AWSResponse's content from."""

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield self.getvalue()


def _body(fault: Fault, request: Any) -> bytes:
    if fault.service == "s3":
        return (f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{fault.code}</Code>'
                f"<Message>injected</Message></Error>").encode()
    body: dict[str, Any] = {"__type": f"com.amazonaws.{fault.service}#{fault.code}", "message": "injected"}
    if fault.code == "TransactionCanceledException":
        operations = len(json.loads(request.body or b"{}").get("TransactItems", []))
        body["CancellationReasons"] = [{"Code": "TransactionConflict", "Message": "injected"}] \
            + [{"Code": "None"}] * (operations - 1)
    return json.dumps(body).encode()


def response(fault: Fault, request: Any) -> AWSResponse:
    content_type = "application/xml" if fault.service == "s3" else "application/x-amz-json-1.0"
    return AWSResponse(request.url, fault.status, {"Content-Type": content_type,
                                                   "x-amzn-query-error": f"{fault.code};Sender"},
                       _Raw(_body(fault, request)))


@dataclass
class Injector:
    """Numbers the calls; from call `at` (1-based) on, answers the calls `fault` hits with it — every
    attempt of every such call when `persistent` (an outage for the rest of the request), else only the
    first attempt of call `at` (a blip botocore's retries absorb)."""

    fault: Fault | None = None
    at: int = 0
    persistent: bool = True
    calls: list[tuple[str, str]] = field(default_factory=list)
    attempts: list[int] = field(default_factory=list)  # attempts sent per call
    injected: int = 0

    def on_call(self, event_name: str, **_: Any) -> None:
        _, service, operation = event_name.split(".")
        self.calls.append((service, operation))
        self.attempts.append(0)

    def on_send(self, event_name: str, request: Any, **_: Any) -> AWSResponse | None:
        _, service, operation = event_name.split(".")
        number = len(self.calls)
        self.attempts[-1] += 1
        if self.fault is None or not self.fault.hits(service, operation):
            return None
        if number < self.at or (not self.persistent and (number != self.at or self.attempts[-1] > 1)):
            return None
        self.injected += 1
        if self.fault.status == 0:
            raise ConnectionClosedError(endpoint_url=request.url)  # botocore catches it as a failed attempt
        answer = response(self.fault, request)
        # botocore runs every before-send handler and uses the first answer: moto's stub (registered on
        # plain `before-send`) would still perform the request. Pointed at a host no stub knows, it is
        # left alone, so the failed attempt changes nothing, as a refused request does not.
        request.url = NOWHERE
        return answer

    @property
    def retried(self) -> int:
        """How many attempts went beyond each call's first."""
        return sum(count - 1 for count in self.attempts)


@contextmanager
def injecting(injector: Injector) -> Iterator[Injector]:
    """Watch every client of bindery.platform.aws while the block runs."""
    clients = {"dynamodb": aws.dynamodb_client(), "s3": aws.s3_client(), "sqs": aws.sqs_client()}
    for service, client in clients.items():
        client.meta.events.register(f"before-call.{service}", injector.on_call)
        client.meta.events.register_first(f"before-send.{service}", injector.on_send)
    try:
        yield injector
    finally:
        for service, client in clients.items():
            client.meta.events.unregister(f"before-call.{service}", injector.on_call)
            client.meta.events.unregister(f"before-send.{service}", injector.on_send)
