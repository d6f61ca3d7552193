"""The delivery worker's backoff: a failed attempt hides its message for longer each time before SQS
delivers it again (docs/integrations.md, "Events")."""

from __future__ import annotations

from bindery.domain.integrations.delivery import backoff_seconds
from bindery.platform import aws
from local import queue_delivery
from local.lambda_runtime import WorkerContext
from local.template import load
from tests.api.integration_support import install
from tests.api.integrations.test_integration_events import dev_integration


def test_the_backoff_grows_with_each_attempt_up_to_sqs_limit():
    assert [backoff_seconds(n) for n in (1, 2, 3, 4)] == [30, 120, 480, 1920]
    assert backoff_seconds(20) == 12 * 3600


def test_a_failed_attempt_hides_its_message_for_the_attempts_backoff(api, receiver, sqs_queues):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    receiver.statuses = [500, 500]
    install(api, ada)
    sqs = aws.sqs_client()
    [worker] = [d for d in queue_delivery.deliveries(load(), sqs_queues)
                if d.source.function == "IntegrationEventWorker"]
    asked: list[dict[str, object]] = []

    def record(params, **_):
        asked.append(dict(params))

    sqs.meta.events.register("provide-client-params.sqs.ChangeMessageVisibility", record)
    try:
        for _ in range(2):
            messages = worker.receive(sqs)
            assert len(messages) == 1
            result = worker.handler(queue_delivery.sqs_event(messages, worker.queue.arn),
                                    WorkerContext(worker.source.function))
            failed = [f["itemIdentifier"] for f in result["batchItemFailures"]]
            assert failed == [messages[0]["MessageId"]]
            # as if the backoff had passed (the test cannot wait for it)
            handle = messages[0]["ReceiptHandle"]
            sqs.change_message_visibility(QueueUrl=worker.queue.url, ReceiptHandle=handle,
                                          VisibilityTimeout=0)
    finally:
        sqs.meta.events.unregister("provide-client-params.sqs.ChangeMessageVisibility", record)
    hidden = [p["VisibilityTimeout"] for p in asked if p["QueueUrl"] == worker.queue.url]
    assert hidden[0::2] == [30, 120]  # attempt 1, attempt 2 (each followed by the test's own 0)
    assert len(receiver.raw) == 2
