"""Conversations worker: processes the revisions of conversations the API ingested
(bindery.domain.conversations.processing).

One SQS message per revision, `{organizationId, conversationId, rev}`. A message that raises is reported
as a batch item failure (Powertools' partial batch response): SQS delivers it again, and after the
queue's maxReceiveCount moves it to the dead-letter queue. A malformed message can never succeed: it
ends there, where an operator sees it. A duplicate delivery finds its revision processed and changes
nothing.
"""

from __future__ import annotations

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from bindery.domain.conversations.processing import process
from bindery.platform import observability
from bindery.platform.messages import ConversationMessage

SERVICE = "conversations"
logger = observability.logger(SERVICE)
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


def record_handler(record: SQSRecord) -> str:
    return process(ConversationMessage.model_validate_json(record.body))


lambda_handler = observability.sqs_worker(SERVICE, record_handler, processor)
