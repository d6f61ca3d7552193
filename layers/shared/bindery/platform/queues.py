"""Background work goes through SQS: one JSON message per job (bindery.platform.messages), to a queue named in
the settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bindery.platform.aws import sqs_client
from bindery.platform.messages import Message

if TYPE_CHECKING:
    from mypy_boto3_sqs.type_defs import SendMessageBatchRequestEntryTypeDef


def send(queue_url: str, message: Message) -> None:
    """Queue `message` (as JSON, bindery.platform.messages) on `queue_url`: one SendMessage. Callers decide
    what an unset queue (empty URL) means for them before calling."""
    sqs_client().send_message(QueueUrl=queue_url, MessageBody=message.model_dump_json())


def send_all(queue_url: str, messages: list[Message]) -> None:
    """Queue every message: one SendMessageBatch per 10 (SQS's limit). An entry SQS refuses is sent
    again once, alone, so that a partial failure raises instead of losing it silently."""
    client = sqs_client()
    for start in range(0, len(messages), 10):
        chunk = messages[start:start + 10]
        entries: list[SendMessageBatchRequestEntryTypeDef] = [
            {"Id": str(n), "MessageBody": m.model_dump_json()} for n, m in enumerate(chunk)]
        failed = client.send_message_batch(QueueUrl=queue_url, Entries=entries).get("Failed") or []
        for entry in failed:
            send(queue_url, chunk[int(entry["Id"])])


def delay(queue_url: str, receipt_handle: str, seconds: int) -> None:
    """Make a received message visible again in `seconds` (ChangeMessageVisibility): a worker's backoff
    before SQS delivers a failed message again."""
    sqs_client().change_message_visibility(QueueUrl=queue_url, ReceiptHandle=receipt_handle,
                                           VisibilityTimeout=seconds)
