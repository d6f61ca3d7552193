"""bindery.platform.aws: the DynamoDB resource is made once per thread (boto3 resources are not thread-safe),
the clients once per process; `reset` forgets them all."""

from __future__ import annotations

import threading

from bindery.platform import aws


def _in_a_thread(call):
    made = []
    thread = threading.Thread(target=lambda: made.append(call()))
    thread.start()
    thread.join()
    return made[0]


def test_each_thread_has_its_own_table_resource_and_keeps_it():
    mine = aws.dynamodb_table()
    assert aws.dynamodb_table() is mine
    assert aws.dynamodb_client() is mine.meta.client
    theirs = _in_a_thread(lambda: (aws.dynamodb_table(), aws.dynamodb_table()))
    assert theirs[0] is theirs[1]
    assert theirs[0] is not mine
    # Not even the client (and its condition-expression builder) is shared.
    assert theirs[0].meta.client is not mine.meta.client


def test_clients_are_shared_by_threads():
    # boto3 clients are thread-safe: one per process.
    assert _in_a_thread(aws.s3_client) is aws.s3_client()
    assert _in_a_thread(aws.sqs_client) is aws.sqs_client()


def test_reset_forgets_every_thread_s_handles():
    aws.dynamodb_table()
    _in_a_thread(aws.dynamodb_table)
    aws.s3_client()
    assert {"dynamodb", "s3"} <= aws.made()
    aws.reset()
    assert aws.made() == set()


def test_nested_counts_each_see_every_request_until_they_close():
    # The per-invocation metric counts inside the tests' and benchmarks' own counts: two open counts,
    # equal (empty) when they open, each get every request, and closing the inner one stops only it.
    from bindery import keys

    table = aws.dynamodb_table()
    with aws.counting_requests() as outer:
        with aws.counting_requests() as inner:
            table.get_item(Key=keys.space("nope"))
        table.get_item(Key=keys.space("nope"))
        with aws.counting_requests() as again:
            table.get_item(Key=keys.space("nope"))
    table.get_item(Key=keys.space("nope"))
    assert (outer, inner, again) == ({"GetItem": 3}, {"GetItem": 1}, {"GetItem": 1})

