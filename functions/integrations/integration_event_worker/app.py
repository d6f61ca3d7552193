"""Integration event worker: delivers the events the API recorded (bindery.domain.integrations.delivery).

One SQS message per event, `{integration, eventId}`. An attempt that fails hides its message for a
backoff that grows with the attempt (ChangeMessageVisibility, `delivery.backoff_seconds`) and is
reported as a batch item failure (Powertools' partial batch response): SQS delivers it again once the
backoff has passed, and after its maxReceiveCount moves it to the dead-letter queue. A malformed
message ends there too, where an operator sees it.
"""

from __future__ import annotations

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from bindery.domain.integrations.delivery import DeliveryFailed, backoff_seconds, deliver
from bindery.platform import observability, queues
from bindery.platform.config import settings
from bindery.platform.messages import IntegrationEventMessage

SERVICE = "integration-events"
logger = observability.logger(SERVICE)
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


def record_handler(record: SQSRecord) -> str:
    message = IntegrationEventMessage.model_validate_json(record.body)
    attempt = int(record.attributes.approximate_receive_count or 1)
    try:
        return deliver(message, attempt=attempt)
    except DeliveryFailed:
        queue_url = settings().integration_events_queue_url
        if queue_url:
            queues.delay(queue_url, record.receipt_handle, backoff_seconds(attempt))
        raise


lambda_handler = observability.sqs_worker(SERVICE, record_handler, processor)
