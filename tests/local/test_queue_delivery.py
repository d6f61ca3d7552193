"""In-process SQS delivery (local/queue_delivery.py) over moto's SQS: the template's queues and event
sources, Lambda's partial batch responses, redelivery and dead-lettering."""

from __future__ import annotations

import json
from typing import Any

from bindery.platform import aws
from local import queue_delivery
from local.queue_delivery import Delivery, EventSource
from local.template import load


def test_the_template_wires_the_git_sync_worker_to_its_queue() -> None:
    template = load()
    sources = {source.function: source for source in queue_delivery.event_sources(template)}
    assert sources["GitSyncWorker"] == EventSource("GitSyncWorker", "GitSyncQueue", 1, True)
    spec = queue_delivery.queue_specs(template)["GitSyncQueue"]
    assert spec.dead_letter_queue == "GitSyncDeadLetterQueue"
    assert spec.max_receive_count == 3
    assert queue_delivery.queue_environment(template)["BINDERY_GIT_SYNC_QUEUE_URL"] == "GitSyncQueue"


def test_queues_are_created_with_their_redrive_policy(sqs_queues: dict[str, Any]) -> None:
    attributes = aws.sqs_client().get_queue_attributes(
        QueueUrl=sqs_queues["GitSyncQueue"].url, AttributeNames=["All"])["Attributes"]
    redrive = json.loads(attributes["RedrivePolicy"])
    assert redrive["deadLetterTargetArn"] == sqs_queues["GitSyncDeadLetterQueue"].arn
    assert int(redrive["maxReceiveCount"]) == 3
    assert attributes["VisibilityTimeout"] == "3600"


class Recorder:
    """A worker that fails the messages whose body says so (a partial batch response)."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        self.events.append(event)
        failed = [{"itemIdentifier": record["messageId"]} for record in event["Records"]
                  if json.loads(record["body"]).get("fail")]
        return {"batchItemFailures": failed}


def _send(queue_url: str, *bodies: dict[str, Any]) -> None:
    for body in bodies:
        aws.sqs_client().send_message(QueueUrl=queue_url, MessageBody=json.dumps(body))


def test_failed_messages_come_back_until_sqs_dead_letters_them(sqs_queues: dict[str, Any]) -> None:
    sqs, queue, dlq = aws.sqs_client(), sqs_queues["GitSyncQueue"], sqs_queues["GitSyncDeadLetterQueue"]
    worker = Recorder()
    delivery = Delivery(EventSource("W", "GitSyncQueue", 10, True), queue, worker)
    _send(queue.url, {"n": 1}, {"n": 2, "fail": True})
    queue_delivery.deliver_available(sqs, [delivery])
    bodies = [json.loads(r["body"]) for event in worker.events for r in event["Records"]]
    assert bodies.count({"n": 1}) == 1  # deleted after its success
    assert bodies.count({"n": 2, "fail": True}) == 3  # maxReceiveCount deliveries
    dead = sqs.receive_message(QueueUrl=dlq.url, MaxNumberOfMessages=10)["Messages"]
    assert [json.loads(m["Body"]) for m in dead] == [{"n": 2, "fail": True}]


def test_events_are_shaped_as_lambda_sends_them(sqs_queues: dict[str, Any]) -> None:
    sqs, queue = aws.sqs_client(), sqs_queues["GitSyncQueue"]
    worker = Recorder()
    _send(queue.url, {"n": 1})
    delivery = Delivery(EventSource("W", "GitSyncQueue", 1, True), queue, worker)
    queue_delivery.deliver_available(sqs, [delivery])
    (record,) = worker.events[0]["Records"]
    assert record["eventSource"] == "aws:sqs"
    assert record["eventSourceARN"] == queue.arn
    assert record["attributes"]["ApproximateReceiveCount"] == "1"
    assert json.loads(record["body"]) == {"n": 1}
    assert record["receiptHandle"]
    assert record["md5OfBody"]


def test_without_report_batch_item_failures_a_raising_handler_fails_the_whole_batch(
        sqs_queues: dict[str, Any]) -> None:
    sqs, queue = aws.sqs_client(), sqs_queues["SearchIndexQueue"]
    calls: list[int] = []

    def crashing(event: dict[str, Any], context: Any) -> None:
        calls.append(len(event["Records"]))
        raise RuntimeError("boom")

    _send(queue.url, {"n": 1})
    queue_delivery.deliver_available(sqs, [Delivery(EventSource("W", "SearchIndexQueue", 10, False), queue,
                                                    crashing)])
    assert calls == [1, 1, 1]


def test_each_delivery_counts_its_workers_invocations_and_their_own_cpu(sqs_queues: dict[str, Any],
                                                                      tmp_path: Any) -> None:
    """What bench.load reads to tell the workers' queued work from the SQS emulation around it: the CPU
    the handler's own thread spent, for every invocation, failed ones included."""
    import threading
    import time

    sqs, queue = aws.sqs_client(), sqs_queues["SearchIndexQueue"]
    spent: list[float] = []

    def busy(event: dict[str, Any], context: Any) -> None:
        started = time.thread_time()
        while time.thread_time() - started < 0.002:  # CPU work, not a wait
            pass
        spent.append(time.thread_time() - started)
        if json.loads(event["Records"][0]["body"]).get("fail"):
            raise RuntimeError("boom")

    delivery = Delivery(EventSource("W", "SearchIndexQueue", 1, False), queue, busy)
    _send(queue.url, {"n": 1}, {"n": 2, "fail": True})
    queue_delivery.deliver_available(sqs, [delivery])
    assert delivery.invocations == 1 + 3  # the failing one until SQS dead-letters it
    assert delivery.cpu_seconds >= sum(spent)
    usage = tmp_path / "workers.json"
    running = queue_delivery.Deliveries(sqs, [delivery], threading.Lock(), usage_file=usage)
    running.record_usage()
    assert json.loads(usage.read_text()) == {"W": {"invocations": 4, "cpu_seconds": delivery.cpu_seconds}}
