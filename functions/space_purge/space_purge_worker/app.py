"""Space purge: removes everything a deleted space owned once DynamoDB's TTL has removed its item.

Fed by the table's stream (KEYS_ONLY). The event source mapping's filter passes only TTL removals of
space items (template.yaml); the handler checks the same again, because a record that is not one must
never delete anything. A purge that fails (a throttled request, a timeout) is reported as a batch item
failure and retried from that record on; after the mapping's last retry Lambda sends the batch's shard
and sequence numbers to SpacePurgeDLQ. Purging is idempotent (bindery.domain.spaces.purge), so a retry
finishes what an interrupted attempt left.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import (
    DynamoDBRecord,
    DynamoDBRecordEventName,
)
from aws_lambda_powertools.utilities.typing import LambdaContext

from bindery.domain.spaces.purge import purge_removed
from bindery.platform import observability

SERVICE = "space-purge"
logger = observability.logger(SERVICE)
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
# Who DynamoDB's stream names as the remover of an item its TTL process deleted.
TTL_SERVICE = {"type": "Service", "principalId": "dynamodb.amazonaws.com"}


def removed_by_ttl(record: DynamoDBRecord) -> bool:
    if record.event_name != DynamoDBRecordEventName.REMOVE or record.dynamodb is None:
        return False
    identity = record.user_identity or {}
    return {key: identity.get(key) for key in TTL_SERVICE} == TTL_SERVICE


def record_handler(record: DynamoDBRecord) -> None:
    purge = purge_removed(record.dynamodb.keys) if removed_by_ttl(record) and record.dynamodb else None
    if purge is None:
        logger.info("not a TTL removal of a space: ignored", extra={"eventId": record.event_id})
        return
    logger.info("space purged", extra={
        "spaceId": purge.space_id, "items": purge.items, "objects": purge.objects,
        "spaceStillStored": purge.space_still_stored})


def run(event: dict[str, Any], context: LambdaContext,
        invocation: observability.Invocation) -> dict[str, Any]:
    records = event.get("Records") or []
    # Until the processor answers, every record counts as failed (it raises when all of them did).
    invocation.counts.update(Records=len(records), FailedRecords=len(records))
    response: dict[str, Any] = dict(process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context))
    invocation.counts["FailedRecords"] = len(response.get("batchItemFailures") or [])
    return response


lambda_handler = observability.observed(SERVICE, run)
