"""OpenAPI processing worker: processes the sources the API queued (bindery.domain.openapi.processing).

One SQS message per job, `{organizationId, slug, specId, job}`. A message that raises is reported as a
batch item failure (Powertools' partial batch response): SQS delivers it again, and after the queue's
maxReceiveCount moves it to the dead-letter queue. That includes a malformed message, which can never
succeed: it ends in the dead-letter queue, where an operator sees it, rather than vanish.
"""

from __future__ import annotations

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from bindery.domain.openapi.processing import process
from bindery.platform import observability
from bindery.platform.messages import OpenAPIProcessMessage

SERVICE = "openapi-processing"
logger = observability.logger(SERVICE)
processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


def record_handler(record: SQSRecord) -> str | None:
    message = OpenAPIProcessMessage.model_validate_json(record.body)
    delivery = int(record.attributes.approximate_receive_count or 1)
    return process(message, delivery=delivery)


lambda_handler = observability.sqs_worker(SERVICE, record_handler, processor)
