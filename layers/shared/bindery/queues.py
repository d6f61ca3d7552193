"""Background work goes through SQS: one JSON message per job (bindery.messages), to a queue named in
the settings."""

from __future__ import annotations

from bindery.aws import sqs_client
from bindery.messages import Message


def send(queue_url: str, message: Message) -> None:
    """Queue `message` (as JSON, bindery.messages) on `queue_url`: one SendMessage. Callers decide what
    an unset queue (empty URL) means for them before calling."""
    sqs_client().send_message(QueueUrl=queue_url, MessageBody=message.model_dump_json())
