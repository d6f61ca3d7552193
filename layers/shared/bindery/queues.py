"""Background work goes through SQS: one JSON message per job, to a queue named in the settings."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bindery.aws import sqs_client


def send(queue_url: str, body: Mapping[str, Any]) -> None:
    """Queue `body` (as JSON) on `queue_url`: one SendMessage. Callers decide what an unset queue
    (empty URL) means for them before calling."""
    sqs_client().send_message(QueueUrl=queue_url, MessageBody=json.dumps(body, separators=(",", ":")))
