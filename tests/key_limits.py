"""DynamoDB's key-size limits, enforced on the test engine's requests: a partition key value over 2,048
bytes or a sort key value over 1,024 is refused with a ValidationException, as DynamoDB (and DynamoDB
Local) refuse it. moto checks writes only, so without this a read with an over-long key passes the
default tier and is a 500 in production (issue 39, F3)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from botocore.exceptions import ClientError

from bindery.platform import aws

PARTITION_LIMIT, SORT_LIMIT = 2048, 1024
PARTITIONS = ("PK", "GSI1PK", "GSI2PK", "GSI3PK")
SORTS = ("SK", "GSI1SK", "GSI2SK", "GSI3SK")


def _size(value: Any) -> int:
    if not isinstance(value, dict):
        return 0
    return len(str(value.get("S", "")).encode("utf-8", errors="surrogatepass"))


def _keys_in(body: Any) -> Iterator[dict[str, Any]]:
    """Every key or item a request names (GetItem, PutItem, BatchGetItem, TransactWriteItems…)."""
    if isinstance(body, dict):
        for name, value in body.items():
            if name in ("Key", "Item") and isinstance(value, dict):
                yield value
            elif name == "Keys" and isinstance(value, list):
                yield from (key for key in value if isinstance(key, dict))
            else:
                yield from _keys_in(value)
    elif isinstance(body, list):
        for item in body:
            yield from _keys_in(item)


def violation(operation: str, body: dict[str, Any]) -> str | None:
    """What DynamoDB would refuse in this request's keys (None: nothing)."""
    for key in _keys_in(body):
        if any(_size(key.get(name)) > PARTITION_LIMIT for name in PARTITIONS) or \
                any(_size(key.get(name)) > SORT_LIMIT for name in SORTS):
            return f"{operation}: a key over DynamoDB's size limits"
    if operation == "Query":  # the key condition's values: a partition value at most
        values = (body.get("ExpressionAttributeValues") or {}).values()
        if any(_size(value) > PARTITION_LIMIT for value in values):
            return "Query: a key condition value over DynamoDB's size limits"
    return None


@contextmanager
def enforced() -> Iterator[None]:
    """Within: this thread's DynamoDB client refuses over-long keys as DynamoDB does."""

    def check(model: Any, params: dict[str, Any], **_: Any) -> None:
        body = json.loads(params.get("body") or b"{}")
        found = violation(model.name, body)
        if found:
            raise ClientError({"Error": {"Code": "ValidationException", "Message": found}}, model.name)

    events = aws.dynamodb_client().meta.events
    events.register("before-call.dynamodb", check)
    try:
        yield
    finally:
        events.unregister("before-call.dynamodb", check)
