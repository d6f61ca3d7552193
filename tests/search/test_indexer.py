"""A space moving to a new revision queues it; the indexer builds its index and link report once."""

from __future__ import annotations

import json

from bindery.platform import aws
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
    from bindery.engines.search import indexing

    def broken(*_):
        raise RuntimeError("throttled")

    monkeypatch.setattr(indexing.revision_store, "revision_documents", broken)
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    revision_id = publish(space_id, tree(page("p1", "Install")), {"p1": doc("x")})
    message = json.dumps({"spaceId": space_id, "revisionId": revision_id})
    reply = lambda_handler(_event("not json", message), Context())  # the malformed one is dropped
    assert reply == {"batchItemFailures": [{"itemIdentifier": "m1"}]}


def test_a_new_revision_is_indexed_from_its_parents_index(api, request_counter, tmp_path):
    import sqlite3

    from bindery.engines.search import storage
    from bindery.engines.search.indexing import build_revision, full_build
    from bindery.engines.search.query import search
    from bindery.store import revisions as revision_store
    from tests.api.content.test_content_reads import stored_tree

    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    count = 120  # more documents than one BatchGetItem reads: the parent's index is worth reading
    first = publish(space_id, tree(*(page(f"p{i}", f"Step {i}") for i in range(count))),
                    {f"p{i}": doc(f"Install step {i} of the server.") for i in range(count)})
    assert build_revision(space_id, first)
    value = stored_tree(space_id)
    value["pages"][7]["title"] = "Rotate logs"
    second = publish(space_id, value, {"p7": doc("Rotate the server's log files.")})
    request_counter.clear()
    assert build_revision(space_id, second)
    # What exists (one batch), then the edited page's old and new bodies (one batch): a full build reads
    # all 120 documents in two.
    assert request_counter["BatchGetItem"] == 2
    revision = revision_store.get_revision(space_id, second)
    stored = revision_store.load_tree(revision)
    full = tmp_path / "full.sqlite"
    full.write_bytes(full_build(space_id, stored, revision_store.revision_documents(space_id, stored)).data)
    built = storage.connect(space_id, search_store.get_index_pointer(space_id, second).digest)
    for query in ("rotate", "install server", "step*", "log"):
        assert search(built, query, limit=200) == search(sqlite3.connect(full), query, limit=200), query
    assert [hit.id for hit in search(built, "rotate logs", limit=5)[1]][:1] == ["p7"]


def test_a_damaged_parent_index_costs_a_full_build_not_a_failure(api, tmp_path):
    """The parent's file is checked against its digest: a damaged one (or one SQLite cannot read) is built
    around in full, where it once failed every delivery and every search of the new revision."""
    import sqlite3

    from bindery.engines.search import storage
    from bindery.engines.search.indexing import build_revision
    from bindery.engines.search.query import search
    from bindery.store.objects import object_store
    from tests.api.content.test_content_reads import stored_tree

    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    count = 120
    first = publish(space_id, tree(*(page(f"p{i}", f"Step {i}") for i in range(count))),
                    {f"p{i}": doc(f"Install step {i} of the server.") for i in range(count)})
    assert build_revision(space_id, first)
    parent = search_store.get_index_pointer(space_id, first)
    key = storage.object_key(space_id, parent.digest)
    data = bytearray(object_store().get(key))
    data[len(data) // 2:] = bytes(len(data) - len(data) // 2)  # its meta page reads, the rest is gone
    object_store().put(key, bytes(data))
    value = stored_tree(space_id)
    value["pages"][7]["title"] = "Rotate logs"
    second = publish(space_id, value, {"p7": doc("Rotate the server's log files.")})
    assert build_revision(space_id, second)
    built = storage.connect(space_id, search_store.get_index_pointer(space_id, second).digest)
    assert isinstance(built, sqlite3.Connection)
    assert [hit.id for hit in search(built, "rotate logs", limit=5)[1]][:1] == ["p7"]
    assert search(built, "install", limit=200)[0] == count - 1


def test_a_space_of_a_few_dozen_pages_is_built_from_its_parents_index(api, monkeypatch, tmp_path):
    """bench.load's merges edit one page of a 100-page space: its new revision is built from the parent's
    index (the edited page read again) rather than by reading and indexing every document, and answers
    as a full build does; a space of a handful of pages is still built in full."""
    import sqlite3

    from bindery.engines.search import indexing, storage
    from bindery.engines.search.indexing import build_revision, full_build
    from bindery.engines.search.query import search
    from bindery.store import revisions as revision_store
    from tests.api.content.test_content_reads import stored_tree

    ada = api.org_admin()
    reads_all = revision_store.revision_documents

    def revision_of(count: int) -> tuple[str, str]:
        space_id = new_space(api, ada)["id"]
        first = publish(space_id, tree(*(page(f"p{i}", f"Step {i}") for i in range(count))),
                        {f"p{i}": doc(f"Install step {i} of the server.") for i in range(count)})
        assert build_revision(space_id, first)
        value = stored_tree(space_id)
        value["pages"][3]["title"] = "Rotate logs"
        return space_id, publish(space_id, value, {"p3": doc("Rotate the server's log files.")})

    small_space, small = revision_of(indexing.BUILD_UPON_ABOVE)
    space_id, second = revision_of(indexing.BUILD_UPON_ABOVE + 8)
    full_builds: list[str] = []
    monkeypatch.setattr(indexing.revision_store, "revision_documents",
                        lambda space, stored: full_builds.append(space) or reads_all(space, stored))
    assert build_revision(space_id, second)
    assert build_revision(small_space, small)
    assert full_builds == [small_space]
    revision = revision_store.get_revision(space_id, second)
    stored = revision_store.load_tree(revision)
    full = tmp_path / "full.sqlite"
    full.write_bytes(full_build(space_id, stored, reads_all(space_id, stored)).data)
    built = storage.connect(space_id, search_store.get_index_pointer(space_id, second).digest)
    for query in ("rotate", "install server", "step*", "log"):
        assert search(built, query, limit=200) == search(sqlite3.connect(full), query, limit=200), query
