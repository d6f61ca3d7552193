"""Search indexer: builds the search index and the link report of a space revision (SQS).

Messages are `{spaceId, revisionId}`, queued when a space moves to a new revision
(bindery.engines.search.indexing.request_index). Building is idempotent: a revision whose index and report
exist is a no-op, so a redelivered message costs two GetItems. A failure (a throttled request, a missing blob)
is raised, reported as a batch item failure (Powertools' partial batch response) and retried by SQS,
then dead-lettered after the queue's maxReceiveCount. A malformed message can never succeed: it is logged
and dropped.
"""

from __future__ import annotations

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from pydantic import ValidationError

from bindery.engines.search.indexing import build_revision
from bindery.platform import observability
from bindery.platform.messages import IndexMessage

SERVICE = "search-indexer"
logger = observability.logger(SERVICE)
processor = BatchProcessor(event_type=EventType.SQS)


def record_handler(record: SQSRecord) -> bool:
    try:
        message = IndexMessage.model_validate_json(record.body)
    except ValidationError:
        logger.error("malformed search index message dropped", extra={"messageId": record.message_id})
        return False
    built = build_revision(message.spaceId, message.revisionId)
    if not built:
        logger.info("revision gone, nothing to index", extra={"spaceId": message.spaceId})
    return built


lambda_handler = observability.sqs_worker(SERVICE, record_handler, processor)
