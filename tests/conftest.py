"""Test engines and fixtures.

BINDERY_TEST_ENGINE=moto (default): one `mock_aws` for the whole session, the table created from
template.yaml (GSIs and TTL included) and recreated for each test.
BINDERY_TEST_ENGINE=dynamodb-local: the same, against Amazon DynamoDB Local (the repository tier), with
moto's in-process S3 and SQS beside it (DynamoDB Local has neither). Either way the blob bucket is
created for each test, and emptied and removed after it.

Tests marked `concurrent` race threads against the engine; moto is not thread-safe, so they run on
DynamoDB Local only: on moto they are deselected (not skipped), and `make test-dynamodb-local` selects
them with `-m "repository or concurrent"`.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

os.environ.update({
    "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1",
    "BINDERY_TABLE": "bindery-test", "BINDERY_BUCKET": "bindery-test-blobs",
    "BINDERY_CURSOR_SECRET": "test-cursor-secret-0123456789abcdef",
    "POWERTOOLS_SERVICE_NAME": "bindery-test", "POWERTOOLS_LOG_LEVEL": "CRITICAL",
    # No X-Ray daemon here (Powertools would also notice it is not on Lambda); metrics stay on, printed
    # as EMF to the captured stdout, where tests/test_observability.py reads them.
    "POWERTOOLS_TRACE_DISABLED": "true",
})
os.environ.pop("POWERTOOLS_METRICS_DISABLED", None)  # nor POWERTOOLS_DEV, which disables them too
os.environ.pop("POWERTOOLS_DEV", None)
os.environ.pop("POWERTOOLS_METRICS_NAMESPACE", None)  # the tests expect the default, "Bindery"
os.environ.pop("BINDERY_DYNAMODB_ENDPOINT", None)
os.environ.pop("BINDERY_CLOCK_OFFSET_SECONDS", None)
os.environ.pop("BINDERY_S3_ENDPOINT", None)
os.environ.pop("BINDERY_BLOB_DIR", None)  # bytes go to (mock) S3 unless a test sets it

from bindery.platform import aws
from bindery.platform.aws import counting_requests
from bindery.store import revisions
from local.engine import create_table
from tests.client import ApiClient
from tests.settings_environment import changed_environment

ENGINE = os.environ.get("BINDERY_TEST_ENGINE", "moto")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The browser suite needs Chromium and starts its own server: only `-m browser` (make test-browser).
    if "browser" not in (config.option.markexpr or ""):
        browsing = [item for item in items if item.get_closest_marker("browser")]
        if browsing:
            config.hook.pytest_deselected(items=browsing)
            items[:] = [item for item in items if not item.get_closest_marker("browser")]
    if ENGINE == "dynamodb-local":
        return
    racing = [item for item in items if item.get_closest_marker("concurrent")]
    if racing:
        config.hook.pytest_deselected(items=racing)
        items[:] = [item for item in items if not item.get_closest_marker("concurrent")]


@pytest.fixture(scope="session")
def engine() -> Iterator[str]:
    if ENGINE == "dynamodb-local":
        from moto import mock_aws

        from local import dynamodb_local

        server = dynamodb_local.start()
        os.environ["BINDERY_DYNAMODB_ENDPOINT"] = server.endpoint
        aws.reset()
        try:
            with mock_aws(config=server.moto_beside()):  # type: ignore[arg-type]
                aws.reset()
                yield "dynamodb-local"
        finally:
            server.stop()
            os.environ.pop("BINDERY_DYNAMODB_ENDPOINT", None)
            aws.reset()
    else:
        from moto import mock_aws

        with mock_aws():
            aws.reset()
            yield "moto"
        aws.reset()


def _empty_bucket() -> None:
    """Remove the blob bucket and everything in it (a test may have written more than a page of keys)."""
    s3, bucket = aws.s3_client(), os.environ["BINDERY_BUCKET"]
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for entry in page.get("Contents", []):
            s3.delete_object(Bucket=bucket, Key=entry["Key"])
    s3.delete_bucket(Bucket=bucket)


@pytest.fixture(autouse=True)
def table(engine: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fresh, empty table and blob bucket for every test (and no cached content from the last one:
    tests reuse space ids such as "s1")."""
    monkeypatch.delenv("BINDERY_CLOCK_OFFSET_SECONDS", raising=False)
    create_table(os.environ["BINDERY_TABLE"], poll_seconds=0.05)
    aws.s3_client().create_bucket(Bucket=os.environ["BINDERY_BUCKET"])
    revisions.clear_cache()
    yield
    aws.dynamodb_client().delete_table(TableName=os.environ["BINDERY_TABLE"])
    _empty_bucket()


@pytest.fixture
def api() -> ApiClient:
    return ApiClient()


@pytest.fixture
def request_counter() -> Iterator[dict[str, int]]:
    """Counts DynamoDB requests by operation while a test runs (the cost of an API operation)."""
    with counting_requests() as counts:
        yield counts


# --- SQS: the template's queues, and delivering their messages to the workers -----------------------------
@pytest.fixture
def sqs_queues(engine: str) -> Iterator[dict[str, Any]]:
    """The template's queues (dead-letter queues and redrive policies included), created for this test,
    their URLs in the environment variables the template sets (BINDERY_GIT_SYNC_QUEUE_URL…)."""
    from local import queue_delivery
    from local.template import load

    template = load()
    sqs = aws.sqs_client()
    queues = queue_delivery.create_queues(sqs, template, prefix=f"test-{uuid.uuid4().hex[:8]}-")
    environment = {env: queues[ref].url for env, ref in queue_delivery.queue_environment(template).items()}
    with changed_environment(environment):
        yield queues
    for queue in queues.values():
        sqs.delete_queue(QueueUrl=queue.url)


@pytest.fixture
def deliver_queued(sqs_queues: dict[str, Any]) -> Callable[[], int]:
    """`deliver_queued()` hands every queued message to its worker, as Lambda's event source mapping
    would (failed ones again, until SQS dead-letters them), and returns once the queues are empty: the
    number of worker invocations. Deterministic: no threads, no waiting."""
    from local import queue_delivery
    from local.template import load

    wired = queue_delivery.deliveries(load(), sqs_queues)
    return lambda: queue_delivery.deliver_available(aws.sqs_client(), wired)
