"""A deleted space is permanently removed after 7 days: once DynamoDB's TTL deletes the space item, the
SpacePurgeWorker (fed by the table's stream; local.ttl_stream emulates the TTL process and the stream)
removes every item and object the space owned, and nothing of any other space."""

from __future__ import annotations

import base64

import pytest

from bindery.platform import aws
from bindery.platform.config import settings
from bindery.store import space_purge
from local import ttl_stream
from local.lambda_runtime import WorkerContext
from local.stream_records import matches, removal_record
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.spaces.test_spaces import new_space

pytestmark = pytest.mark.repository
DAY = 24 * 3600


def stored_items(space_id):
    """Every item of the space's partition, expired ones included (a raw Query: the store hides those)."""
    table = aws.dynamodb_table()
    items, request = [], {"KeyConditionExpression": "PK = :pk",
                          "ExpressionAttributeValues": {":pk": f"SPACE#{space_id}"}}
    while True:
        page_ = table.query(**request)
        items.extend(page_["Items"])
        if "LastEvaluatedKey" not in page_:
            return items
        request["ExclusiveStartKey"] = page_["LastEvaluatedKey"]


def stored_objects(space_id):
    listing = aws.s3_client().list_objects_v2(Bucket=settings().blob_bucket, Prefix=f"spaces/{space_id}/")
    return [entry["Key"] for entry in listing.get("Contents", [])]


def purge_worker():
    return next(c for c in ttl_stream.stream_consumers(ttl_stream.load()) if c.function == "SpacePurgeWorker")


def kinds(items):
    return {str(item["SK"]).split("#")[0] for item in items}


def full_space(api, ada, title):
    """A space with pages, a change request with an uploaded file, comments, a reply and a search index."""
    space_id = new_space(api, ada, title=title)["id"]
    publish(space_id, tree(page("p1", "Intro"), page("p2", "Install")),
            {"p1": doc("Hello buffers"), "p2": doc("Install the agent")})
    cr = new_cr(api, ada, space_id, subject="Edits")
    png = base64.b64encode(b"\x89PNG tiny").decode()
    edited = api.post(f"/spaces/{space_id}/change-requests/{cr['id']}/content", token=ada.token, body={
        "changes": [{"operation": "insert_files", "files": [
            {"name": "a.png", "contentType": "image/png", "base64": png, "ref": "a.png"}]}]})
    assert edited.status == 200, edited.body
    comment = api.post(f"/spaces/{space_id}/comments", token=ada.token, body={"body": {"markdown": "hi"}})
    assert comment.status == 200, comment.body
    reply = api.post(f"/spaces/{space_id}/comments/{comment.json()['id']}/replies", token=ada.token,
                     body={"body": {"markdown": "ho"}})
    assert reply.status == 200, reply.body
    assert api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "agent"}).status == 200
    return space_id


@pytest.fixture
def later(monkeypatch):
    def move(days):
        monkeypatch.setenv("BINDERY_CLOCK_OFFSET_SECONDS", str(days * DAY))
    return move


def test_a_deleted_space_is_purged_whole_once_its_ttl_has_passed(api, later):
    ada = api.org_admin()
    gone, kept = full_space(api, ada, "Gone"), full_space(api, ada, "Kept")
    assert {"SPACE", "REVISION", "BLOB", "CR", "COMMENT", "REPLY", "COMMENTER", "SEARCHINDEX"} <= kinds(
        stored_items(gone))
    assert any("/files/" in key for key in stored_objects(gone))
    assert any("/search/" in key for key in stored_objects(gone))
    kept_items, kept_objects = len(stored_items(kept)), stored_objects(kept)
    assert api.delete(f"/spaces/{gone}", token=ada.token).status == 204

    later(6)  # inside the restore window: nothing expires
    assert ttl_stream.sweep().removed == []
    assert len(stored_items(gone)) > 1

    later(8)
    result = ttl_stream.sweep()
    assert result.removed == [{"PK": f"SPACE#{gone}", "SK": "SPACE"}]
    assert (result.invocations, result.dead) == (1, [])
    assert stored_items(gone) == []
    assert stored_objects(gone) == []
    assert len(stored_items(kept)) == kept_items
    assert stored_objects(kept) == kept_objects
    assert api.get(f"/spaces/{kept}/content", token=ada.token).status == 200


def test_a_redelivered_removal_record_deletes_nothing_more(api, later):
    """The stream delivers at least once: the same TTL removal again, after the purge, finds nothing of the
    space left and touches nothing else."""
    ada = api.org_admin()
    gone, kept = full_space(api, ada, "Gone"), full_space(api, ada, "Kept")
    kept_items, kept_objects = len(stored_items(kept)), stored_objects(kept)
    assert api.delete(f"/spaces/{gone}", token=ada.token).status == 204
    later(8)
    assert ttl_stream.sweep().removed == [{"PK": f"SPACE#{gone}", "SK": "SPACE"}]
    assert stored_items(gone) == []
    worker = purge_worker()
    again = removal_record({"PK": f"SPACE#{gone}", "SK": "SPACE"}, 1, at=0)
    with aws.counting_requests() as dynamodb, aws.counting_requests("s3") as s3:
        response = worker.handler({"Records": [again]}, WorkerContext("SpacePurgeWorker"))
    assert response == {"batchItemFailures": []}
    assert not {"BatchWriteItem", "DeleteItem", "TransactWriteItems"} & set(dynamodb)
    assert not {"DeleteObjects", "DeleteObject"} & set(s3)
    assert (len(stored_items(kept)), stored_objects(kept)) == (kept_items, kept_objects)


def test_a_restored_space_keeps_everything(api, later):
    ada = api.org_admin()
    space_id = full_space(api, ada, "Back")
    before = len(stored_items(space_id))
    assert api.delete(f"/spaces/{space_id}", token=ada.token).status == 204
    later(3)
    assert api.post(f"/spaces/{space_id}/restore", token=ada.token).status == 200
    later(30)
    assert ttl_stream.sweep().removed == []
    assert len(stored_items(space_id)) == before


def test_a_purge_cut_short_is_finished_by_the_retry(api, later, monkeypatch):
    ada = api.org_admin()
    space_id = full_space(api, ada, "Halfway")
    assert api.delete(f"/spaces/{space_id}", token=ada.token).status == 204
    monkeypatch.setattr(space_purge, "PAGE_SIZE", 3)
    pages = {"n": 0}
    real = space_purge.delete_items_page

    def dies_after_two_pages(space):
        pages["n"] += 1
        if pages["n"] == 3:
            raise TimeoutError("the function ran out of time")
        return real(space)

    monkeypatch.setattr(space_purge, "delete_items_page", dies_after_two_pages)
    later(8)
    result = ttl_stream.sweep()
    # The first attempt deleted two pages and failed; the retry deleted the rest.
    assert (result.invocations, result.dead) == (2, [])
    assert stored_items(space_id) == []
    assert stored_objects(space_id) == []


def test_a_purge_that_keeps_failing_is_dead_lettered_and_deletes_nothing_more(api, later, monkeypatch):
    ada = api.org_admin()
    space_id = full_space(api, ada, "Stuck")
    assert api.delete(f"/spaces/{space_id}", token=ada.token).status == 204

    def unavailable(space):
        raise ConnectionError("S3 is unreachable")

    monkeypatch.setattr(space_purge, "delete_objects", unavailable)
    later(8)
    result = ttl_stream.sweep()
    retries = purge_worker().retries
    assert result.invocations == retries + 1
    assert [r["dynamodb"]["Keys"]["PK"]["S"] for r in result.dead] == [f"SPACE#{space_id}"]
    assert stored_objects(space_id)  # the bytes are still there for the redrive


def test_only_ttl_removals_of_space_items_purge(api):
    """A record the event filter should have stopped deletes nothing: the handler checks again."""
    ada = api.org_admin()
    space_id = full_space(api, ada, "Live")
    before = len(stored_items(space_id))
    worker = purge_worker()
    by_a_user = removal_record({"PK": f"SPACE#{space_id}", "SK": "SPACE"}, 1, at=0)
    by_a_user["userIdentity"] = {}
    not_a_space = removal_record({"PK": f"SPACE#{space_id}", "SK": "GITRUN#r1"}, 2, at=0)
    # A TTL record for a space whose item is still stored (the stream is late, the item was renewed).
    still_stored = removal_record({"PK": f"SPACE#{space_id}", "SK": "SPACE"}, 3, at=0)
    response = worker.handler({"Records": [by_a_user, not_a_space, still_stored]},
                              WorkerContext("SpacePurgeWorker"))
    assert response == {"batchItemFailures": []}
    assert len(stored_items(space_id)) == before
    assert api.get(f"/spaces/{space_id}", token=ada.token).status == 200


def test_the_stream_filter_passes_only_ttl_removals_of_space_items():
    worker = purge_worker()
    space = removal_record({"PK": "SPACE#s1", "SK": "SPACE"}, 1, at=0)
    run = removal_record({"PK": "SPACE#s1", "SK": "GITRUN#r1"}, 2, at=0)
    by_a_user = {**space, "userIdentity": {"type": "User", "principalId": "someone"}}
    written = {**space, "eventName": "MODIFY"}
    assert [any(matches(p, r) for p in worker.patterns)
            for r in (space, run, by_a_user, written)] == [True, False, False, False]
