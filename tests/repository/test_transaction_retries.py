"""Writes under contention: DynamoDB cancels a transaction that meets another in progress on one of its
items (reason "TransactionConflict", retried by store.table.transact, then a 503), and refuses a
single-item write to such an item (TransactionConflictException, retried by the client bindery.platform.aws
makes). DynamoDB Local serialises transactions and never does either, so both are injected here, ahead
of the real request."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from botocore.awsrequest import AWSResponse
from botocore.exceptions import ClientError

from bindery.platform import aws
from bindery.platform.errors import ServiceUnavailable
from bindery.store import change_requests as cr_store
from bindery.store import table
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.spaces.test_spaces import new_space

pytestmark = pytest.mark.repository
KEY = {"PK": "COUNTER#c1", "SK": "COUNTER"}


@contextmanager
def contended(times: int, reasons: tuple[str, ...] = ("TransactionConflict", "None")) -> Iterator[list[int]]:
    """The next `times` TransactWriteItems are cancelled with `reasons`; yields the list of every
    TransactWriteItems sent (1 per call), refused or not."""
    sent: list[int] = []

    def cancel(**_: Any) -> tuple[AWSResponse, dict[str, Any]] | None:
        sent.append(1)
        if len(sent) > times:
            return None  # the real request
        response = {"Error": {"Code": "TransactionCanceledException", "Message": "Transaction cancelled"},
                    "CancellationReasons": [{"Code": reason} for reason in reasons],
                    "ResponseMetadata": {"HTTPStatusCode": 400}}
        return AWSResponse("https://dynamodb.us-east-1.amazonaws.com", 400, {}, None), response

    events = aws.dynamodb_client().meta.events
    events.register("before-call.dynamodb.TransactWriteItems", cancel)
    try:
        yield sent
    finally:
        events.unregister("before-call.dynamodb.TransactWriteItems", cancel)


def increment() -> list[table.Op]:
    return [table.update_op(KEY, "ADD n :one", {":one": 1}, name="counter"),
            table.put_op({"PK": "COUNTER#c1", "SK": "EVENT#1"}, "attribute_not_exists(PK)", name="event")]


def test_a_transaction_cancelled_by_contention_is_sent_again_and_lands_once():
    with contended(table.TRANSACTION_ATTEMPTS - 1) as sent:
        table.transact(increment())
    assert len(sent) == table.TRANSACTION_ATTEMPTS
    assert table.get(KEY)["n"] == 1


def test_contention_that_outlasts_the_retries_writes_nothing():
    with contended(table.TRANSACTION_ATTEMPTS) as sent, pytest.raises(ServiceUnavailable):
        table.transact(increment())
    assert len(sent) == table.TRANSACTION_ATTEMPTS
    assert table.get(KEY) is None


def test_a_failed_condition_is_never_retried():
    table.transact(increment())
    with contended(0) as sent, pytest.raises(table.TransactionConflict) as raised:
        table.transact(increment())  # the event exists: its condition fails
    assert len(sent) == 1
    assert raised.value.failed("event")
    with contended(1, ("ConditionalCheckFailed", "TransactionConflict")) as sent, \
            pytest.raises(table.TransactionConflict):
        table.transact(increment())
    assert len(sent) == 1
    assert table.get(KEY)["n"] == 1


def test_a_comment_posted_while_another_write_holds_the_change_request_lands(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    cr = new_cr(api, ada, space_id)
    with contended(2, ("None", "TransactionConflict", "None")):
        reply = api.post(f"/spaces/{space_id}/change-requests/{cr['id']}/comments", token=ada.token,
                         body={"body": {"markdown": "Looks good"}})
    assert reply.status == 200, reply.body
    assert cr_store.get_change_request(space_id, cr["id"]).comments == 1
    listed = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/comments", token=ada.token).json()
    assert [c["id"] for c in listed["items"]] == [reply.json()["id"]]


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def stream(self) -> Iterator[bytes]:
        yield self.data


@contextmanager
def item_in_a_transaction(times: int) -> Iterator[list[int]]:
    """The next `times` PutItem requests are answered, on the wire, as DynamoDB answers a write to an item
    that a transaction in progress holds; yields every PutItem sent (retries included). DynamoDB Local
    only: the answer replaces the request sent to it, whereas moto, answering in the same hook, would
    still write."""
    sent: list[int] = []

    def refuse(**_: Any) -> AWSResponse | None:
        sent.append(1)
        if len(sent) > times:
            return None
        body = json.dumps({"__type": "com.amazonaws.dynamodb.v20120810#TransactionConflictException",
                           "message": "Transaction is ongoing for the item"}).encode()
        return AWSResponse("https://dynamodb.us-east-1.amazonaws.com", 400,
                           {"Content-Type": "application/x-amz-json-1.0"}, _Body(body))

    events = aws.dynamodb_client().meta.events
    events.register_first("before-send.dynamodb.PutItem", refuse)
    try:
        yield sent
    finally:
        events.unregister("before-send.dynamodb.PutItem", refuse)


@pytest.mark.concurrent
def test_a_single_write_refused_for_a_transaction_in_progress_is_sent_again():
    with item_in_a_transaction(aws.ITEM_CONFLICT_ATTEMPTS - 1) as sent:
        aws.dynamodb_table().put_item(Item={**KEY, "n": 7}, ConditionExpression="attribute_not_exists(PK)")
    assert len(sent) == aws.ITEM_CONFLICT_ATTEMPTS
    assert table.get(KEY)["n"] == 7


@pytest.mark.concurrent
def test_a_single_write_refused_too_often_fails_and_writes_nothing():
    with item_in_a_transaction(aws.ITEM_CONFLICT_ATTEMPTS) as sent, pytest.raises(ClientError) as raised:
        aws.dynamodb_table().put_item(Item={**KEY, "n": 7})
    assert raised.value.response["Error"]["Code"] == "TransactionConflictException"
    assert len(sent) == aws.ITEM_CONFLICT_ATTEMPTS
    assert table.get(KEY) is None
