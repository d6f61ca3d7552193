"""Duplicate deliveries at the same time, on DynamoDB Local: SQS may hand one message to two workers at
once (at-least-once delivery, a visibility timeout that ran out). The run's claim lets exactly one of them
do the work; the others do nothing, and the result is the one a single delivery gives."""

from __future__ import annotations

import json

import pytest

from bindery.domain.git_sync import runs as git_runs
from bindery.domain.openapi import processing
from bindery.domain.translations import runs as translation_runs
from bindery.platform import aws
from bindery.platform.messages import GitRunMessage, OpenAPIProcessMessage, TranslationRunMessage
from bindery.store import openapi_specs as spec_store
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from tests.api.git_sync_support import SIMPLE, run, space_with_admin, start
from tests.api.git_sync_support import git_settings as git_settings  # noqa: PLC0414 - the fixture
from tests.api.openapi.test_openapi_processing import spec_of, versions_of
from tests.api.openapi.test_openapi_processing import web as web  # noqa: PLC0414 - the fixture, used here too
from tests.api.openapi.test_openapi_specs import create
from tests.api.translations.test_translation_runs import handbook, translation_of
from tests.api.translations.test_translation_runs import translator as translator  # noqa: PLC0414 - the fixture
from tests.api.translations.test_translations import create as create_translation
from tests.concurrency.racing import race
from tests.git_repos import bare_repo

pytestmark = pytest.mark.concurrent
DUPLICATES = 4


def queued(sqs_queues, queue):
    (message,) = aws.sqs_client().receive_message(QueueUrl=sqs_queues[queue].url)["Messages"]
    return json.loads(message["Body"])


@pytest.mark.usefixtures("git_settings")
def test_a_git_import_delivered_to_several_workers_at_once_runs_once(api, sqs_queues, tmp_path):
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "docs.git", SIMPLE), ref="main")
    message = GitRunMessage.model_validate(queued(sqs_queues, "GitSyncQueue"))
    before = space_store.get_space(space["id"]).revision
    outcomes = race(*[lambda: git_runs.perform(message.spaceId, message.runId, message.url, delivery=1)
                      for _ in range(DUPLICATES)])
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    # One worker claimed the run and finished it; the others found it claimed (or done): nothing to do.
    assert sorted(outcomes, key=lambda o: o.value is None)[0].value == "succeeded"
    assert [outcome.value for outcome in outcomes].count(None) == DUPLICATES - 1
    done = run(api, ada, path)
    assert done["status"] == "succeeded"
    after = space_store.get_space(space["id"]).revision
    assert after == done["revision"]
    assert revision_store.get_revision(space["id"], after).parents == [before]  # one import, one revision


def test_an_openapi_job_delivered_to_several_workers_at_once_makes_one_version(api, web, sqs_queues):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore.yaml"))
    message = OpenAPIProcessMessage.model_validate(queued(sqs_queues, "OpenAPIProcessingQueue"))
    outcomes = race(*[lambda: processing.process(message, delivery=1) for _ in range(DUPLICATES)])
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    assert sorted(str(outcome.value) for outcome in outcomes) == ["None"] * (DUPLICATES - 1) + ["complete"]
    assert versions_of(api, ada)["count"] == 1
    assert web.requests == ["/v3.0/petstore.yaml"]  # fetched once
    spec = spec_of(api, ada)
    assert spec["processingState"] == "complete"
    assert spec_store.get_spec(ada.org_id, "pets").job == message.job


def test_a_translation_run_delivered_to_several_workers_at_once_runs_once(api, translator, sqs_queues):
    ada, space = handbook(api)
    made = create_translation(api, ada, space["id"])
    message = TranslationRunMessage.model_validate(queued(sqs_queues, "TranslationRunQueue"))
    outcomes = race(*[lambda: translation_runs.process(message, delivery=1) for _ in range(DUPLICATES)])
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    done = [outcome.value for outcome in outcomes if outcome.value is not None]
    assert done == ["completed"]
    final = translation_of(api, ada, made)
    assert (final["status"], final["stats"]["runs"]) == ("completed", 1)
