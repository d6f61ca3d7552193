"""The request primitives every repository uses: GetItem, BatchGetItem, a one-page Query, transactions.

There is deliberately no Scan here: every access pattern names its partition.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from botocore.exceptions import ClientError

from bindery.keys import Key
from bindery.platform import clock
from bindery.platform.aws import dynamodb_client, dynamodb_table
from bindery.platform.config import settings
from bindery.platform.errors import ServiceUnavailable, transient_cancellation

# Re-exported: the store's callers catch the conflict its transactions raise under this name too.
from bindery.platform.errors import TransactionConflict as TransactionConflict  # noqa: PLC0414

Item = dict[str, Any]
TTL_ATTRIBUTE = "expiresAt"


def is_live(item: Item) -> bool:
    """DynamoDB deletes expired items late (up to days); an item past its TTL is treated as gone.
    The time comes from `bindery.platform.clock`, so that tests can move past an expiry."""
    expires = item.get(TTL_ATTRIBUTE)
    return expires is None or int(expires) > int(clock.now().timestamp())


# What `plain` converts or looks inside; anything else (strings, above all) it hands back as it is.
_CONVERTED = (Decimal, dict, list)


def plain(value: Any) -> Any:
    """DynamoDB hands numbers back as Decimal; the domain wants ints (or floats)."""
    # Only values that need it are passed down: a listing's items are mostly strings, and a call per
    # string was a quarter of the time for a page of 30 change requests (0.19 ms, now 0.14).
    if isinstance(value, dict):
        return {k: plain(v) if isinstance(v, _CONVERTED) else v for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) if isinstance(v, _CONVERTED) else v for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def get(key: Key, *, consistent: bool = True) -> Item | None:
    response = dynamodb_table().get_item(Key=key, ConsistentRead=consistent)
    item = response.get("Item")
    return plain(item) if item is not None and is_live(item) else None


def batch_get(keys: list[Key]) -> list[Item]:
    """One BatchGetItem for up to 100 keys (retrying only what DynamoDB leaves unprocessed)."""
    if not keys:
        return []
    name = settings().table_name
    found: list[Item] = []
    pending: dict[str, Any] = {name: {"Keys": keys, "ConsistentRead": True}}
    while pending:
        response = dynamodb_client().batch_get_item(RequestItems=pending)
        found.extend(plain(item) for item in response["Responses"].get(name, []) if is_live(item))
        pending = dict(response.get("UnprocessedKeys") or {})
    return found


def batch_delete(keys: list[Key]) -> None:
    """Deletes the items, 25 to a BatchWriteItem (unprocessed ones retried by boto3's batch writer): for
    removing what nothing else refers to any more, where no condition is needed."""
    if not keys:
        return
    with dynamodb_table().batch_writer() as batch:
        for key in keys:
            batch.delete_item(Key=key)


@dataclass
class QueryPage:
    items: list[Item]
    last_key: dict[str, Any] | None


@dataclass
class Query:
    """One page of one partition, in key order; `filter` narrows it after DynamoDB reads it."""

    partition: str
    index: str | None = None
    prefix: str | None = None
    forward: bool = True
    limit: int = 100
    start_key: dict[str, Any] | None = None
    filter: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    def run(self) -> QueryPage:
        response = dynamodb_table().query(**self._kwargs())
        items = [plain(item) for item in response.get("Items", []) if is_live(item)]
        return QueryPage(items=items, last_key=response.get("LastEvaluatedKey"))

    def count(self) -> int:
        """How many items the whole listing (every page, same key condition and filter) holds: a
        `Select=COUNT` Query, one request per MB DynamoDB reads (one for any listing of a few thousand
        items). Items past their TTL but not yet removed are counted: only listings without TTL use it."""
        kwargs = self._kwargs()
        kwargs.pop("Limit")
        kwargs.pop("ExclusiveStartKey", None)
        kwargs["Select"] = "COUNT"
        total = 0
        while True:
            response = dynamodb_table().query(**kwargs)
            total += int(response.get("Count", 0))
            if not response.get("LastEvaluatedKey"):
                return total
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def _kwargs(self) -> dict[str, Any]:
        from boto3.dynamodb.conditions import Key as Cond

        pk_name, sk_name = ("PK", "SK") if self.index is None else (f"{self.index}PK", f"{self.index}SK")
        condition: Any = Cond(pk_name).eq(self.partition)
        if self.prefix is not None:
            condition = condition & Cond(sk_name).begins_with(self.prefix)
        kwargs: dict[str, Any] = {
            "KeyConditionExpression": condition,
            "ScanIndexForward": self.forward,
            "Limit": self.limit,
            **self.extra,
        }
        if self.index is not None:
            kwargs["IndexName"] = self.index
        else:
            kwargs["ConsistentRead"] = True
        if self.start_key:
            kwargs["ExclusiveStartKey"] = self.start_key
        if self.filter is not None:
            kwargs["FilterExpression"] = self.filter
        return kwargs


class Op(dict[str, Any]):
    """One write of a transaction: exactly the TransactItem DynamoDB takes (`{"Put": {...}}` and so on),
    plus a `name` saying what it is for, so that a cancelled transaction can say which write was refused
    (`TransactionConflict.failed(name)`) instead of the caller counting positions."""

    def __init__(self, name: str, kind: str, request: dict[str, Any]) -> None:
        super().__init__({kind: request})
        self.name = name


def storable(value: Any) -> Any:
    """boto3 refuses floats: a float (a number in a document's data) is stored as the Decimal of its
    shortest repr, which `plain` turns back into the same float."""
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, dict):
        return {k: storable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(v) for v in value]
    return value


def put_op(item: Item, condition: str | None = None, *, name: str = "put", **extra: Any) -> Op:
    op: dict[str, Any] = {"TableName": settings().table_name, "Item": storable(item)}
    if condition:
        op["ConditionExpression"] = condition
    op.update(extra)
    return Op(name, "Put", op)


def update_op(key: Key, expression: str, values: dict[str, Any] | None = None,
              condition: str | None = None, names: dict[str, str] | None = None, *,
              name: str = "update") -> Op:
    op: dict[str, Any] = {"TableName": settings().table_name, "Key": key, "UpdateExpression": expression}
    if values:
        op["ExpressionAttributeValues"] = storable(values)
    if names:
        op["ExpressionAttributeNames"] = names
    if condition:
        op["ConditionExpression"] = condition
    return Op(name, "Update", op)


def delete_op(key: Key, condition: str | None = None, values: dict[str, Any] | None = None,
              names: dict[str, str] | None = None, *, name: str = "delete") -> Op:
    op: dict[str, Any] = {"TableName": settings().table_name, "Key": key}
    if condition:
        op["ConditionExpression"] = condition
    if names:
        op["ExpressionAttributeNames"] = names
    if values:
        op["ExpressionAttributeValues"] = values
    return Op(name, "Delete", op)


def condition_op(key: Key, condition: str, values: dict[str, Any] | None = None, *,
                 name: str = "check") -> Op:
    op: dict[str, Any] = {"TableName": settings().table_name, "Key": key, "ConditionExpression": condition}
    if values:
        op["ExpressionAttributeValues"] = values
    return Op(name, "ConditionCheck", op)


def named(name: str, op: Op) -> Op:
    """`op` under another name: how a caller tells apart two writes a store function built alike."""
    ((kind, request),) = op.items()
    return Op(name, kind, request)


class Transaction:
    """The one way Bindery writes several items at once: collect named operations (each built by a
    `store/` function), then `commit()` them all-or-nothing in one TransactWriteItems. When DynamoDB
    cancels it, the `TransactionConflict` raised names the refused operations."""

    def __init__(self, *ops: Op | Iterable[Op]) -> None:
        self.ops: list[Op] = []
        self.add(*ops)

    def add(self, *ops: Op | Iterable[Op]) -> Transaction:
        for op in ops:
            if isinstance(op, Op):
                self.ops.append(op)
            else:
                self.ops.extend(op)
        return self

    def __len__(self) -> int:
        return len(self.ops)

    def commit(self) -> None:
        transact(self.ops)


# Attempts of a transaction DynamoDB cancels only for contention or throughput (botocore retries neither:
# the error is TransactionCanceledException, a 400), with jittered backoff as botocore's standard mode
# waits for DynamoDB's non-throttling errors (at most 25 ms, doubling per attempt).
TRANSACTION_ATTEMPTS = 3
TRANSACTION_BACKOFF_SECONDS = 0.025


def transact(operations: Iterable[Op]) -> None:
    """The one TransactWriteItems call: all or nothing, up to 100 operations (`Transaction.commit`). A
    cancellation for a failed condition is a `TransactionConflict` naming it; one only for contention or
    throughput wrote nothing, so the same request is sent again, and `ServiceUnavailable` (503) when that
    keeps happening: never a `TransactionConflict`, which callers read as "a condition failed"."""
    ops = list(operations)
    for attempt in range(TRANSACTION_ATTEMPTS):
        try:
            dynamodb_client().transact_write_items(TransactItems=ops)  # type: ignore[arg-type]
            return
        except ClientError as error:
            if error.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            reasons = [r.get("Code", "None") for r in error.response.get("CancellationReasons", [])]
            if not transient_cancellation(reasons):
                raise TransactionConflict(reasons, [op.name for op in ops]) from error
            if attempt + 1 == TRANSACTION_ATTEMPTS:
                raise ServiceUnavailable() from error
            time.sleep(random.random() * TRANSACTION_BACKOFF_SECONDS * 2 ** attempt)  # noqa: S311
