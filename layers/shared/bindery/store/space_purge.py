"""Removing what a deleted space owned, once DynamoDB's TTL has removed the space item itself.

Everything a space owns lives in its partition `SPACE#{spaceId}` (revisions, blobs, grants, comments,
replies, commenters, change requests and their reviews, Git Sync runs, search indexes, link reports; the
index entries of those items go with them) and under the object prefix `spaces/{spaceId}/` (file bytes,
large blobs, search indexes). Each call here removes one page and says how much it removed, so that a
purge cut short (a timeout, a throttled request) is finished by the next attempt: nothing it deleted comes
back, and nothing depends on what the interrupted attempt had read.
"""

from __future__ import annotations

from typing import Any

from bindery import keys
from bindery.platform.aws import dynamodb_table
from bindery.store.objects import object_store

# One Query page; the batch writer sends its deletes 25 to a BatchWriteItem and retries unprocessed ones.
PAGE_SIZE = 500


def space_id_of(key: dict[str, str]) -> str | None:
    """The space a removed item's key names when it was a space item, else None."""
    return keys.space_id_of(key)


def space_item_present(space_id: str) -> bool:
    """Is the space item still stored, expired or not? The purge runs only once DynamoDB has deleted it,
    so a space that still exists (even past its TTL, awaiting deletion) keeps everything it owns."""
    response = dynamodb_table().get_item(Key=keys.space(space_id), ConsistentRead=True,
                                         ProjectionExpression="PK")
    return "Item" in response


def delete_items_page(space_id: str) -> int:
    """Delete up to PAGE_SIZE items of the space's partition (expired ones too: they are stored until
    DynamoDB's TTL gets to them); the number deleted, 0 once the partition is empty."""
    partition = keys.space(space_id)["PK"]
    response = dynamodb_table().query(
        KeyConditionExpression="PK = :pk", ExpressionAttributeValues={":pk": partition},
        ProjectionExpression="PK, SK", ConsistentRead=True, Limit=PAGE_SIZE)
    found: list[dict[str, Any]] = response.get("Items", [])
    with dynamodb_table().batch_writer() as batch:
        for item in found:
            batch.delete_item(Key={"PK": item["PK"], "SK": item["SK"]})
    return len(found)


def delete_objects(space_id: str) -> int:
    """Delete every object of the space (S3, or the local runner's blob directory); the number deleted."""
    return object_store().delete_prefix(f"spaces/{space_id}/")
