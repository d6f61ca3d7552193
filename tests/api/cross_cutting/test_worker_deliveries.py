"""Every SQS worker of template.yaml under SQS's delivery rules: a message that fails on every delivery
(a poison message) is reported as a batch item failure each time and ends in the queue's dead-letter queue
after the queue's maxReceiveCount; a redelivered message writes nothing again. Each worker's own
duplicate, superseded and failed-run cases are in its own tests (test_git_sync_export.py,
test_openapi_processing.py, test_translation_runs.py; the purge's in test_space_purge.py)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from botocore.awsrequest import AWSResponse

from bindery.engines.search import indexing
from bindery.platform import aws, queues
from bindery.platform.messages import (
    ConversationMessage,
    GitRunMessage,
    IndexMessage,
    IntegrationEventMessage,
    Message,
    OpenAPIProcessMessage,
    TranslationRunMessage,
)
from bindery.store import search as search_store
from bindery.store import spaces as space_store
from local.lambda_runtime import WorkerContext, load_handler
from local.queue_delivery import event_sources, queue_specs, sqs_event
from local.template import load
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.spaces.test_spaces import new_space

TEMPLATE = load()
SOURCES = {source.function: source for source in event_sources(TEMPLATE)}
# A well-formed message for each worker: only the outage below makes it fail.
MESSAGES: dict[str, Message] = {
    "GitSyncWorker": GitRunMessage(spaceId="s1", runId="r1", url="https://git.example/docs.git"),
    "SearchIndexWorker": IndexMessage(spaceId="s1", revisionId="r1"),
    "OpenAPIProcessingWorker": OpenAPIProcessMessage(organizationId="o1", slug="pets", specId="x", job="j"),
    "TranslationRunWorker": TranslationRunMessage(organizationId="o1", translationId="t1", job="j"),
    "IntegrationEventWorker": IntegrationEventMessage(integration="analytics", eventId="e1"),
    "ConversationsWorker": ConversationMessage(organizationId="o1", conversationId="c1", rev="r1"),
}
# The workers that record a failed job themselves on their last attempt: the module whose MAX_ATTEMPTS
# must be the queue's maxReceiveCount (one attempt fewer, and a job would be dead-lettered unrecorded;
# one more, and it would never be recorded).
ATTEMPT_COUNTERS = {
    "GitSyncWorker": "bindery.domain.git_sync.runs",
    "OpenAPIProcessingWorker": "bindery.domain.openapi.processing",
    "TranslationRunWorker": "bindery.domain.translations.runs",
}


@contextmanager
def dynamodb_unavailable() -> Iterator[None]:
    """Every DynamoDB request answers InternalServerError, as if botocore had spent its retries."""
    def fail(**_: Any) -> tuple[AWSResponse, dict[str, Any]]:
        error = {"Error": {"Code": "InternalServerError", "Message": "injected outage"},
                 "ResponseMetadata": {"HTTPStatusCode": 500}}
        return AWSResponse("https://dynamodb.us-east-1.amazonaws.com", 500, {}, None), error

    events = aws.dynamodb_client().meta.events
    events.register("before-call.dynamodb", fail)
    try:
        yield
    finally:
        events.unregister("before-call.dynamodb", fail)


def test_every_sqs_worker_has_a_poison_case():
    assert set(MESSAGES) == set(SOURCES)


@pytest.mark.parametrize("function", sorted(SOURCES))
def test_a_poison_message_is_dead_lettered_after_the_queue_s_max_receive_count(function, sqs_queues):
    source = SOURCES[function]
    spec = queue_specs(TEMPLATE)[source.queue]
    assert source.report_failures
    assert spec.dead_letter_queue
    assert spec.max_receive_count
    queue, dead_letter_queue = sqs_queues[source.queue], sqs_queues[spec.dead_letter_queue]
    handler = load_handler(TEMPLATE.functions[function])
    sqs = aws.sqs_client()
    body = MESSAGES[function].model_dump_json()
    queues.send(queue.url, MESSAGES[function])
    with dynamodb_unavailable():
        for delivery in range(1, spec.max_receive_count + 1):
            (message,) = sqs.receive_message(QueueUrl=queue.url, AttributeNames=["All"],
                                             MaxNumberOfMessages=10)["Messages"]
            assert message["Attributes"]["ApproximateReceiveCount"] == str(delivery)
            try:
                result = handler(sqs_event([message], queue.arn), WorkerContext(function))
            except Exception:  # noqa: BLE001 - a batch that failed whole fails the invocation
                result = {"batchItemFailures": [{"itemIdentifier": message["MessageId"]}]}
            assert result == {"batchItemFailures": [{"itemIdentifier": message["MessageId"]}]}
            # Lambda leaves a failed message in the queue; it comes back after its visibility timeout.
            sqs.change_message_visibility(QueueUrl=queue.url, ReceiptHandle=message["ReceiptHandle"],
                                          VisibilityTimeout=0)
    # Received maxReceiveCount times: SQS moves it to the dead-letter queue instead of delivering it again.
    assert "Messages" not in sqs.receive_message(QueueUrl=queue.url, MaxNumberOfMessages=10)
    dead = sqs.receive_message(QueueUrl=dead_letter_queue.url, MaxNumberOfMessages=10)["Messages"]
    assert [m["Body"] for m in dead] == [body]


@pytest.mark.parametrize("function", sorted(ATTEMPT_COUNTERS))
def test_the_last_attempt_a_worker_counts_is_the_queue_s_last_delivery(function):
    spec = queue_specs(TEMPLATE)[SOURCES[function].queue]
    assert spec.max_receive_count == importlib.import_module(ATTEMPT_COUNTERS[function]).MAX_ATTEMPTS


def test_a_redelivered_index_message_writes_nothing(api, sqs_queues):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    revision = publish(space_id, tree(page("p1", "Intro")), {"p1": doc("Hello buffers")})
    source = SOURCES["SearchIndexWorker"]
    queue = sqs_queues[source.queue]
    handler = load_handler(TEMPLATE.functions["SearchIndexWorker"])
    sqs = aws.sqs_client()

    def deliver() -> dict[str, Any]:
        (message,) = sqs.receive_message(QueueUrl=queue.url, AttributeNames=["All"])["Messages"]
        result = handler(sqs_event([message], queue.arn), WorkerContext("SearchIndexWorker"))
        sqs.delete_message(QueueUrl=queue.url, ReceiptHandle=message["ReceiptHandle"])
        return dict(result)

    message = IndexMessage(spaceId=space_id, revisionId=revision)
    queues.send(queue.url, message)
    assert deliver() == {"batchItemFailures": []}
    pointer = search_store.get_index_pointer(space_id, revision)
    report = search_store.get_report_digest(space_id, revision)
    assert pointer is not None
    assert report is not None
    assert api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "buffers"}).json()["items"]

    queues.send(queue.url, message)  # SQS delivers at least once: the same message again
    with aws.counting_requests() as dynamodb, aws.counting_requests("s3") as s3:
        assert deliver() == {"batchItemFailures": []}
    assert set(dynamodb) <= {"GetItem", "Query", "BatchGetItem"}  # reads only
    assert set(s3) <= {"GetObject", "HeadObject"}
    assert (search_store.get_index_pointer(space_id, revision), search_store.get_report_digest(
        space_id, revision)) == (pointer, report)
    assert space_store.get_space(space_id).revision == revision
    assert indexing.build_revision(space_id, revision) is True
