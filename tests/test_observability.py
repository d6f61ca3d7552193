"""Every handler logs with a correlation id and publishes its metrics (bindery.platform.observability): what
an operator searching CloudWatch Logs for a request, or graphing a route's latency, relies on."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from aws_lambda_powertools.logging import correlation_paths

from bindery.platform import observability
from bindery.platform.aws import counting_requests
from local.gateway import build_event
from local.lambda_runtime import WorkerContext, load_handler
from local.queue_delivery import sqs_record
from local.template import Route, load
from tests.client import ApiClient

QUEUE_ARN = "arn:aws:sqs:us-east-1:000000000000:bindery-SearchIndexQueue-1A2B3C"


@contextmanager
def json_logs(service: str) -> Iterator[list[dict[str, Any]]]:
    """The JSON lines `service`'s logger writes while the block runs, at INFO and above (the tests run
    with POWERTOOLS_LOG_LEVEL=CRITICAL, and the logger's stream was bound when it was created)."""
    logger = observability.logger(service)
    stream = io.StringIO()
    handler = logger.registered_handler
    assert isinstance(handler, logging.StreamHandler)
    # Swapped, not `setStream`: that flushes the stream the logger was created with, which may be an
    # earlier test's captured stdout, closed since.
    previous_stream, previous_level = handler.stream, logger.log_level
    handler.stream = stream
    logger.setLevel("INFO")
    lines: list[dict[str, Any]] = []
    try:
        yield lines
    finally:
        logger.setLevel(previous_level)
        handler.stream = previous_stream
        lines.extend(json.loads(line) for line in stream.getvalue().splitlines())


def emf_blobs(stdout: str) -> list[dict[str, Any]]:
    return [blob for line in stdout.splitlines() if line.startswith("{")
            if "_aws" in (blob := json.loads(line))]


def invocation_blob(stdout: str) -> dict[str, Any]:
    """The one EMF blob with the per-invocation metrics (Powertools may add a ColdStart blob)."""
    blobs = [blob for blob in emf_blobs(stdout) if "Requests" in blob]
    assert len(blobs) == 1, blobs
    return blobs[0]


def value(blob: dict[str, Any], name: str) -> float:
    """A metric's one value in the invocation's blob (EMF allows a list of values per metric)."""
    values = blob[name] if isinstance(blob[name], list) else [blob[name]]
    assert len(values) == 1, values
    return float(values[0])


def metric_names(blob: dict[str, Any]) -> dict[str, str]:
    (directive,) = blob["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "Bindery"
    return {metric["Name"]: metric["Unit"] for metric in directive["Metrics"]}


def dimensions(blob: dict[str, Any]) -> dict[str, str]:
    (directive,) = blob["_aws"]["CloudWatchMetrics"]
    (names,) = directive["Dimensions"]
    return {name: blob[name] for name in names}


def test_api_function_logs_the_request_id_and_publishes_route_metrics(
        api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    who, other = api.user("Ada"), api.user("Grace")
    function = load().functions["UsersFunction"]
    handler = load_handler(function)
    event = build_event("GET", f"/users/{other.user_id}", Route(function.name, "/users/{proxy+}", "ANY"),
                        {"proxy": f"users/{other.user_id}"}, headers={"Host": "api.example.com"}, query="",
                        body=None, authorizer={"userId": who.user_id, "principalId": who.user_id})
    request_id = event["requestContext"]["requestId"]
    capsys.readouterr()

    with json_logs("users") as logs, counting_requests() as dynamodb:
        response = handler(event, WorkerContext(function.name))

    assert response["statusCode"] == 200
    (done,) = [line for line in logs if line["message"] == "invocation done"]
    assert done["correlation_id"] == request_id
    assert done["function_name"] == function.name
    assert done["route"] == "GET /users/<userId>"  # the template: the concrete path has an id in it
    assert done["status"] == 200
    blob = invocation_blob(capsys.readouterr().out)
    assert dimensions(blob) == {"service": "users", "route": "GET /users/<userId>"}
    assert metric_names(blob) == {"Requests": "Count", "Latency": "Milliseconds", "DynamoDBRequests": "Count"}
    assert value(blob, "Requests") == 1
    assert value(blob, "Latency") > 0
    assert value(blob, "DynamoDBRequests") == sum(dynamodb.values()) > 0


@pytest.mark.parametrize(("path", "route"), [
    ("/users/no-such-user", "GET /users/<userId>"),  # a 404 from the domain: the route matched
    ("/users/u1/nothing-here", "(no route)"),  # no route: one value, whatever the path
])
def test_route_dimension_is_bounded(api: ApiClient, capsys: pytest.CaptureFixture[str], path: str,
                                    route: str) -> None:
    who = api.user("Ada")
    function = load().functions["UsersFunction"]
    event = build_event("GET", path, Route(function.name, "/users/{proxy+}", "ANY"),
                        {"proxy": path.removeprefix("/")}, headers={}, query="", body=None,
                        authorizer={"userId": who.user_id, "principalId": who.user_id})
    capsys.readouterr()

    response = load_handler(function)(event, WorkerContext(function.name))

    assert response["statusCode"] == 404
    assert dimensions(invocation_blob(capsys.readouterr().out))["route"] == route


def test_worker_logs_each_message_id_and_publishes_metrics_by_queue(
        capsys: pytest.CaptureFixture[str]) -> None:
    function = load().functions["SearchIndexWorker"]
    handler = load_handler(function)
    malformed = sqs_record({"MessageId": "m-malformed", "ReceiptHandle": "r1", "Body": "{}"}, QUEUE_ARN)
    gone = sqs_record({"MessageId": "m-gone", "ReceiptHandle": "r2",
                       "Body": json.dumps({"spaceId": "nope", "revisionId": "nope"})}, QUEUE_ARN)
    capsys.readouterr()

    with json_logs("search-indexer") as logs, counting_requests() as dynamodb:
        response = handler({"Records": [malformed, gone]}, WorkerContext(function.name))

    assert response == {"batchItemFailures": []}
    by_message = {line["message"]: line for line in logs}
    assert by_message["malformed search index message dropped"]["correlation_id"] == "m-malformed"
    assert by_message["revision gone, nothing to index"]["correlation_id"] == "m-gone"
    done = by_message["invocation done"]
    assert done["queue"] == "bindery-SearchIndexQueue-1A2B3C"
    assert done["Messages"] == 2
    blob = invocation_blob(capsys.readouterr().out)
    assert dimensions(blob) == {"service": "search-indexer", "queue": "bindery-SearchIndexQueue-1A2B3C"}
    assert metric_names(blob) == {"Requests": "Count", "Latency": "Milliseconds", "DynamoDBRequests": "Count",
                                  "Messages": "Count", "FailedMessages": "Count"}
    assert (value(blob, "Messages"), value(blob, "FailedMessages")) == (2, 0)
    assert value(blob, "DynamoDBRequests") == sum(dynamodb.values()) > 0


def test_authorizer_publishes_denials_even_when_it_raises(capsys: pytest.CaptureFixture[str]) -> None:
    template = load()
    assert template.authorizer is not None
    function = template.functions[template.authorizer]
    event = {"type": "TOKEN", "authorizationToken": "Bearer not-a-token",
             "methodArn": "arn:aws:execute-api:us-east-1:000000000000:api/v1/GET/user"}
    capsys.readouterr()

    with pytest.raises(Exception, match=r"^Unauthorized$"):
        load_handler(function)(event, WorkerContext(function.name))

    blob = invocation_blob(capsys.readouterr().out)
    assert dimensions(blob) == {"service": "authorizer"}
    assert (value(blob, "Requests"), value(blob, "Denied")) == (1, 1)
    assert value(blob, "DynamoDBRequests") >= 1


@pytest.mark.parametrize(("event", "correlation_id"), [
    ({"requestContext": {"requestId": "c0ffee-1", "stage": "v1"}, "path": "/users/u1"}, "c0ffee-1"),
    ({"requestContext": {"stage": "v1"}}, None),  # no request id
    ({"requestContext": "not an object"}, None),
    ({}, None),
])
def test_log_lines_are_those_of_powertools_correlation_path(
        event: dict[str, Any], correlation_id: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    """The API functions read the correlation id themselves (`gateway_request_id`, no JMESPath search per
    invocation): every key and value of their log lines, in order, is what Powertools' own
    `correlation_id_path=API_GATEWAY_REST` writes, for events with and without a request id."""
    service = "correlation-check"
    log = observability.logger(service)

    def say() -> dict[str, Any]:  # one line, one `location`, whichever handler logs it
        log.info("inside", extra={"step": 1})
        return {}

    ours = observability.observed(service, lambda event, context, invocation: say(),
                                  correlation_id=observability.gateway_request_id)

    @log.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False,
                               clear_state=True)
    def theirs(event: dict[str, Any], context: Any) -> dict[str, Any]:
        return say()

    context = WorkerContext("CorrelationFunction")
    ours(event, context), theirs(event, context)  # both warm: `cold_start` is false from here on
    with json_logs(service) as our_lines:
        ours(event, context)
    with json_logs(service) as their_lines:
        theirs(event, context)
    capsys.readouterr()

    def inside(lines: list[dict[str, Any]]) -> list[tuple[str, Any]]:
        (line,) = [line for line in lines if line["message"] == "inside"]
        return [(key, value) for key, value in line.items() if key != "timestamp"]

    assert inside(our_lines) == inside(their_lines)
    assert dict(inside(our_lines)).get("correlation_id") == correlation_id
