"""Git Sync worker: performs the imports and exports the API queued (bindery.domain.git_sync.runs).

One SQS message per run (BatchSize 1 in template.yaml: a run may take minutes), `{spaceId, runId,
url}`. A message is reported as a batch item failure (Powertools' partial batch response) only when
the run asked to be tried again; SQS then delivers it again, and after the queue's maxReceiveCount
moves it to the dead-letter queue. A malformed message can never succeed: it is logged and dropped.
The event is never logged: its `url` may hold credentials.
"""

from __future__ import annotations

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from pydantic import ValidationError

from bindery.domain.git_sync.runs import perform
from bindery.platform import observability
from bindery.platform.messages import GitRunMessage

SERVICE = "git-sync"
logger = observability.logger(SERVICE)
# BatchSize is 1, so a retry is always "the entire batch failed": answered as a batch item failure too
# (rather than raised), so that every outcome has the one response shape.
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


def record_handler(record: SQSRecord) -> str | None:
    try:
        message = GitRunMessage.model_validate_json(record.body)
    except ValidationError:
        logger.error("malformed Git Sync message dropped", extra={"messageId": record.message_id})
        return None
    delivery = int(record.attributes.approximate_receive_count or 1)
    return perform(message.spaceId, message.runId, message.url, delivery=delivery)


lambda_handler = observability.sqs_worker(SERVICE, record_handler, processor)
