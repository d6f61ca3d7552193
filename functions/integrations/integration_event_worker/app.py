"""Integration event worker: delivers the events the API recorded (bindery.domain.integrations.delivery).

One SQS message per event, `{integration, eventId}`. An attempt that fails is reported as a batch item
failure (Powertools' partial batch response): SQS delivers it again after the queue's visibility
timeout, and after its maxReceiveCount moves it to the dead-letter queue. A malformed message ends there
too, where an operator sees it.
"""

from __future__ import annotations

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from bindery import observability
from bindery.domain.integrations.delivery import deliver
from bindery.messages import IntegrationEventMessage

SERVICE = "integration-events"
logger = observability.logger(SERVICE)
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


def record_handler(record: SQSRecord) -> str:
    message = IntegrationEventMessage.model_validate_json(record.body)
    return deliver(message, attempt=int(record.attributes.approximate_receive_count or 1))


lambda_handler = observability.sqs_worker(SERVICE, record_handler, processor)
