"""Git Sync exports through the API, the export → import round trip, and the worker's SQS contract
(partial batch failures, redelivery, idempotency)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bindery.domain.git_sync import runs as git_runs
from bindery.engines.gitsync import transport
from bindery.platform import aws
from bindery.platform.aws import counting_requests
from bindery.store import revisions as revision_store
from local.lambda_runtime import WorkerContext
from local.queue_delivery import sqs_event
from tests.api.git_sync_support import (
    SIMPLE,
    git_settings,  # noqa: F401 - a fixture
    pages,
    run,
    space_with_admin,
    start,
)
from tests.api.members.test_members import error, join
from tests.client import ApiClient
from tests.git_repos import bare_repo, branch_files, branch_head

pytestmark = pytest.mark.usefixtures("git_settings")
Deliver = Callable[[], int]


def _imported(api: ApiClient, deliver: Deliver, tmp_path: Path, files: dict[str, bytes] = SIMPLE) -> Any:
    ada, space = space_with_admin(api)
    start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "source.git", files), ref="main")
    deliver()
    return ada, space


def _documents(api: ApiClient, who: Any, space_id: str) -> dict[str, Any]:
    """Every document page's path → its document, as a reader gets them."""
    found: dict[str, Any] = {}

    def walk(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            if entry["type"] == "document":
                reply = api.get(f"/spaces/{space_id}/content/page/{entry['id']}", token=who.token)
                found[entry["path"]] = reply.json()["document"]
            walk(entry.get("pages") or [])

    walk(pages(api, who, space_id))
    return found


def _without_git(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**{k: v for k, v in e.items() if k != "git"},
             "pages": _without_git(e.get("pages") or [])} for e in entries]


def test_export_commits_on_the_branch_with_its_head_as_parent(api: ApiClient, deliver_queued: Deliver,
                                                              tmp_path: Path) -> None:
    ada, space = _imported(api, deliver_queued, tmp_path)
    target = tmp_path / "target.git"
    url = bare_repo(target, {"src/app.py": b"print()\n", "docs/stale.md": b"old\n"})
    parent = branch_head(target).id
    path = start(api, ada, space["id"], "export", url=url, ref="refs/heads/main",
                 commitMessage="Docs from Bindery", repoProjectDirectory="docs")
    revision_store.clear_cache()  # a worker's cold start: nothing cached
    with counting_requests() as counts:
        assert deliver_queued() == 1
    # The run, the space, its revision, its tree, the author; every document in one BatchGetItem (not
    # one GetItem each); the space's Git state; the run's end; and the one Query of the space's
    # integrations that its space_gitsync_started/_completed events need (none installed here).
    assert dict(counts) == {"GetItem": 5, "BatchGetItem": 1, "UpdateItem": 1, "TransactWriteItems": 1,
                            "Query": 1}
    done = run(api, ada, path)
    head = branch_head(target)
    assert done["status"] == "succeeded"
    assert done["commit"] == head.id.decode()
    assert done["revision"] == api.get(f"/spaces/{space['id']}", token=ada.token).json()["revision"]
    assert head.parents == [parent]
    assert head.message == b"Docs from Bindery\n"
    assert head.author.startswith(b"Ada <")
    files = branch_files(target)
    assert files["src/app.py"] == b"print()\n"
    assert "docs/stale.md" not in files
    assert {"docs/README.md", "docs/SUMMARY.md", "docs/guide/install.md"} <= set(files)
    assert files["docs/.gitbook/assets/logo.png"] == SIMPLE[".gitbook/assets/logo.png"]


def test_export_then_import_gives_the_same_tree_and_documents(api: ApiClient, deliver_queued: Deliver,
                                                              tmp_path: Path) -> None:
    ada, space = _imported(api, deliver_queued, tmp_path)
    before_pages, before_documents = pages(api, ada, space["id"]), _documents(api, ada, space["id"])
    before_files = api.get(f"/spaces/{space['id']}/content/files", token=ada.token).json()["items"]
    url = bare_repo(tmp_path / "roundtrip.git")
    start(api, ada, space["id"], "export", url=url, ref="main", commitMessage="Export")
    deliver_queued()
    # Imported back (page and file ids are kept by path), the content is what was exported.
    path = start(api, ada, space["id"], "import", url=url, ref="main")
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"
    assert _without_git(pages(api, ada, space["id"])) == _without_git(before_pages)
    assert _documents(api, ada, space["id"]) == before_documents
    after_files = api.get(f"/spaces/{space['id']}/content/files", token=ada.token).json()["items"]
    assert [(f["id"], f["name"], f["size"]) for f in after_files] == \
        [(f["id"], f["name"], f["size"]) for f in before_files]


def test_export_needs_a_commit_message_and_the_edit_role(api: ApiClient, sqs_queues: Any) -> None:
    ada, space = space_with_admin(api)
    body = {"url": "https://github.com/a/b.git", "ref": "main"}
    reply = api.post(f"/spaces/{space['id']}/git/export", token=ada.token, body=body)
    assert "commitMessage" in error(reply, 400)
    commenter = join(api, ada.org_id, "Cy", "comment")
    error(api.post(f"/spaces/{space['id']}/git/export", token=commenter.token,
                   body={**body, "commitMessage": "x"}), 403)


def test_a_push_to_a_missing_repository_fails_the_run(api: ApiClient, deliver_queued: Deliver,
                                                      tmp_path: Path) -> None:
    ada, space = _imported(api, deliver_queued, tmp_path)
    path = start(api, ada, space["id"], "export", url=(tmp_path / "missing.git").as_uri(), ref="main",
                 commitMessage="x")
    deliver_queued()
    assert run(api, ada, path)["status"] == "failed"


# --- the worker's side of SQS ------------------------------------------------------------------------------
def _received(queue_url: str) -> list[dict[str, Any]]:
    messages = aws.sqs_client().receive_message(QueueUrl=queue_url, AttributeNames=["All"],
                                                MaxNumberOfMessages=10)["Messages"]
    return [dict(message) for message in messages]


def _invoke(message: dict[str, Any], queue: Any) -> Any:
    """The worker's handler, called with an SQS event of one received message."""
    from git_sync_worker.app import lambda_handler

    return lambda_handler(sqs_event([message], queue.arn), WorkerContext("GitSyncWorker"))


def test_a_retryable_failure_is_a_batch_item_failure_until_the_last_attempt(
        api: ApiClient, sqs_queues: Any, deliver_queued: Deliver, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    deliver_queued()  # loads the worker (its code directory onto the path)
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "d.git", SIMPLE), ref="main")

    def unreachable(url: str, ref: str, repo: Any) -> Any:
        raise transport.TransientGitError("the host could not be reached")

    monkeypatch.setattr(transport, "fetch_snapshot", unreachable)
    queue = sqs_queues["GitSyncQueue"]
    (message,) = _received(queue.url)
    result = _invoke(message, queue)
    assert result == {"batchItemFailures": [{"itemIdentifier": message["MessageId"]}]}
    assert run(api, ada, path)["status"] == "pending"  # back in line for the next delivery

    aws.sqs_client().change_message_visibility(QueueUrl=queue.url, ReceiptHandle=message["ReceiptHandle"],
                                               VisibilityTimeout=0)
    deliver_queued()  # deliveries 2 and 3: the last one records the failure
    failed = run(api, ada, path)
    assert failed["status"] == "failed"
    assert "could not be reached" in failed["error"]
    dead = aws.sqs_client().receive_message(QueueUrl=sqs_queues["GitSyncDeadLetterQueue"].url)
    assert "Messages" not in dead  # handled (failed) runs are not dead letters


def test_a_redelivered_message_of_a_finished_run_does_nothing(
        api: ApiClient, sqs_queues: Any, deliver_queued: Deliver, tmp_path: Path) -> None:
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "d.git", SIMPLE), ref="main")
    queue = sqs_queues["GitSyncQueue"]
    (message,) = _received(queue.url)
    aws.sqs_client().change_message_visibility(QueueUrl=queue.url, ReceiptHandle=message["ReceiptHandle"],
                                               VisibilityTimeout=0)
    deliver_queued()
    done = run(api, ada, path)
    after = api.get(f"/spaces/{space['id']}", token=ada.token).json()
    # SQS delivers at least once: the same message again finds the run finished and changes nothing.
    assert _invoke(message, queue) == {"batchItemFailures": []}
    assert run(api, ada, path) == done
    assert api.get(f"/spaces/{space['id']}", token=ada.token).json() == after


def test_a_malformed_message_is_dropped(sqs_queues: Any, deliver_queued: Deliver) -> None:
    deliver_queued()
    queue = sqs_queues["GitSyncQueue"]
    aws.sqs_client().send_message(QueueUrl=queue.url, MessageBody=json.dumps({"nothing": "useful"}))
    (message,) = _received(queue.url)
    assert _invoke(message, queue) == {"batchItemFailures": []}


def test_a_run_whose_worker_vanished_is_taken_over(api: ApiClient, deliver_queued: Deliver, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "d.git", SIMPLE), ref="main")
    run_id = path.rsplit("/", 1)[1]
    # A worker claimed it long ago and never finished (its Lambda timed out).
    long_ago = "2020-01-01T00:00:00.000Z"
    assert git_runs.git_runs.claim(space["id"], run_id, long_ago, long_ago)
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"
