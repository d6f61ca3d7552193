"""A space moving to a new revision queues it; the indexer builds its index and link report once."""

from __future__ import annotations

import json

from bindery import aws
from bindery.store import search as search_store
from search_indexer.app import lambda_handler
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.spaces.test_spaces import new_space


class Context:
    function_name = "SearchIndexWorker"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:SearchIndexWorker"
    aws_request_id = "req"


def _event(*bodies):
    return {"Records": [{"messageId": f"m{i}", "receiptHandle": "r", "body": body, "attributes": {
        "ApproximateReceiveCount": "1"}, "messageAttributes": {}, "md5OfBody": "", "eventSource": "aws:sqs",
        "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:q", "awsRegion": "us-east-1"}
        for i, body in enumerate(bodies)]}


def test_advancing_a_space_queues_its_revision_and_the_worker_builds_it(api, sqs_queues, deliver_queued):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    revision_id = publish(space_id, tree(page("p1", "Install")), {"p1": doc("Run the installer.")})
    queued = aws.sqs_client().receive_message(QueueUrl=sqs_queues["SearchIndexQueue"].url,
                                              VisibilityTimeout=0)["Messages"]
    assert [json.loads(m["Body"]) for m in queued] == [{"spaceId": space_id, "revisionId": revision_id}]
    assert deliver_queued() == 1
    pointer = search_store.get_index_pointer(space_id, revision_id)
    assert (pointer.pages, pointer.size > 0) == (1, True)
    assert search_store.get_report_digest(space_id, revision_id) is not None


def test_building_twice_is_a_no_op_and_bad_messages_are_dropped(api, request_counter):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    revision_id = publish(space_id, tree(page("p1", "Install")), {"p1": doc("Run the installer.")})
    message = json.dumps({"spaceId": space_id, "revisionId": revision_id})
    assert lambda_handler(_event(message), Context()) == {"batchItemFailures": []}
    first = search_store.get_index_pointer(space_id, revision_id)
    request_counter.clear()
    gone = json.dumps({"spaceId": space_id, "revisionId": "nope"})
    assert lambda_handler(_event(message, "not json", gone), Context()) == {"batchItemFailures": []}
    assert search_store.get_index_pointer(space_id, revision_id) == first
    assert "PutItem" not in request_counter
    assert "BatchWriteItem" not in request_counter


def test_a_failed_build_is_reported_for_retry(api, monkeypatch):
    from bindery.search import indexing

    def broken(*_):
        raise RuntimeError("throttled")

    monkeypatch.setattr(indexing.revision_store, "revision_documents", broken)
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    revision_id = publish(space_id, tree(page("p1", "Install")), {"p1": doc("x")})
    message = json.dumps({"spaceId": space_id, "revisionId": revision_id})
    reply = lambda_handler(_event("not json", message), Context())  # the malformed one is dropped
    assert reply == {"batchItemFailures": [{"itemIdentifier": "m1"}]}
