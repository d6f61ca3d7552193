"""`space_gitsync_started` / `space_gitsync_completed` (a Git Sync run) and `space_visibility_updated` (a
space's visibility changed): recorded for the installations set up on the space, in the official
payload shapes, and delivered signed to the local receiver (docs/integrations.md, "Events")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery.domain.git_sync import runs as git_runs
from bindery.platform.aws import counting_requests
from bindery.store import spaces as space_store
from bindery.store import table
from tests.api.event_receiver import event_receiver
from tests.api.git_sync_support import SIMPLE, git_settings, start  # noqa: F401 - a fixture
from tests.api.integration_support import SECRET, install, seeded_space
from tests.api.integrations.test_integration_events import dev_integration, events
from tests.api.spaces.test_collections import new_collection, space_in
from tests.api.spaces.test_move import moved
from tests.git_repos import bare_repo, branch_head
from tests.settings_environment import set_env


@pytest.fixture
def receiver(git_settings):  # noqa: F811 - a fixture
    """After git_settings, which clears BINDERY_ALLOW_PRIVATE_HOSTS: the receiver is on loopback."""
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", "1")
    with event_receiver(SECRET) as found:
        yield found
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)


def installed_on(api, who, space_id):
    installation = install(api, who)
    made = api.post(f"/integrations/analytics/installations/{installation['id']}/spaces", token=who.token,
                    body={"space": space_id})
    assert made.status == 201, made.body
    return installation["id"]


def delivered(receiver, *kinds):
    return [event for event in receiver.accepted if event["type"] in kinds]


@pytest.fixture
def watched(api, receiver, deliver_queued):
    """Ada's space with the integration (dev mode: the receiver) installed on it; deliveries so far
    cleared."""
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    space = seeded_space(api, ada, "Docs")
    installation_id = installed_on(api, ada, space["id"])
    deliver_queued()
    receiver.accepted.clear()
    return ada, space, installation_id


def test_an_import_is_started_then_completed_then_the_content_update(api, watched, receiver, deliver_queued,
                                                                    tmp_path):
    ada, space, installation_id = watched
    run_path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "d.git", SIMPLE), ref="main")
    deliver_queued()
    run = api.get(run_path, token=ada.token).json()
    assert run["status"] == "succeeded"
    commit, revision = branch_head(tmp_path / "d.git").id.decode(), run["revision"]
    common = {"installationId": installation_id, "spaceId": space["id"], "revisionId": revision}
    started, completed, updated = delivered(receiver, "space_gitsync_started", "space_gitsync_completed",
                                            "space_content_updated")
    assert started == {"eventId": started["eventId"], "type": "space_gitsync_started", "commitId": commit,
                       **common}
    assert completed == {"eventId": completed["eventId"], "type": "space_gitsync_completed",
                         "state": "success", "commitId": commit, **common}
    assert updated == {"eventId": updated["eventId"], "type": "space_content_updated", **common}
    assert len({started["eventId"], completed["eventId"], updated["eventId"]}) == 3
    statuses = {e["payload"]["type"]: e["status"] for e in events(api, ada)["items"]}
    assert statuses["space_gitsync_started"] == statuses["space_gitsync_completed"] == "success"


def test_an_export_names_the_commit_it_pushed(api, watched, receiver, deliver_queued, tmp_path):
    ada, space, _ = watched
    repo = tmp_path / "out.git"
    run_path = start(api, ada, space["id"], "export", url=bare_repo(repo, SIMPLE), ref="main",
                     commitMessage="Export")
    deliver_queued()
    run = api.get(run_path, token=ada.token).json()
    assert run["status"] == "succeeded"
    pushed = branch_head(repo).id.decode()
    assert run["commit"] == pushed
    found = delivered(receiver, "space_gitsync_started", "space_gitsync_completed", "space_content_updated")
    assert [(e["type"], e["commitId"], e["revisionId"], e.get("state")) for e in found] == [
        ("space_gitsync_started", pushed, space["revision"], None),
        ("space_gitsync_completed", pushed, space["revision"], "success")]


def test_an_import_failing_after_it_started_completes_with_failure(api, watched, receiver, deliver_queued, *,
                                                                  tmp_path, monkeypatch):
    ada, space, _ = watched
    run_path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "d.git", SIMPLE), ref="main")

    def lost_the_space(*_, **__):
        raise git_runs.RunFailed("The space's content changed while importing")

    monkeypatch.setattr(git_runs, "_finish", lost_the_space)
    deliver_queued()
    assert api.get(run_path, token=ada.token).json()["status"] == "failed"
    found = delivered(receiver, "space_gitsync_started", "space_gitsync_completed", "space_content_updated")
    assert [(e["type"], e.get("state")) for e in found] == [("space_gitsync_started", None),
                                                           ("space_gitsync_completed", "failure")]
    assert found[0]["commitId"] == found[1]["commitId"] == branch_head(tmp_path / "d.git").id.decode()


def test_a_run_that_never_reached_a_commit_records_nothing(api, watched, receiver, deliver_queued, tmp_path):
    ada, space, _ = watched
    run_path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "d.git", SIMPLE), ref="nope")
    deliver_queued()
    assert api.get(run_path, token=ada.token).json()["status"] == "failed"
    assert [e["payload"]["type"] for e in events(api, ada)["items"]
            if e["payload"]["type"].startswith("space_gitsync")] == []


def _import_requests(api, who, space_id, url):
    run_path = start(api, who, space_id, "import", url=url, ref="main")
    run_id = run_path.rsplit("/", 1)[1]
    # Read once first, as the worker's earlier work on the space did: the revision and its blobs are cached.
    assert api.get(f"/spaces/{space_id}/content/pages", token=who.token).status == 200
    with counting_requests() as counts:
        assert git_runs.perform(space_id, run_id, url, delivery=1) == "succeeded"
    return counts


def test_a_run_reads_the_spaces_installations_once_for_its_three_events(api, watched, tmp_path, sqs_queues):
    ada, space, _ = watched
    bare = seeded_space(api, ada, "Bare")
    with_one = _import_requests(api, ada, space["id"], bare_repo(tmp_path / "b.git", SIMPLE))
    without = _import_requests(api, ada, bare["id"], bare_repo(tmp_path / "a.git", SIMPLE))
    # The one Query of the space's installations every import makes; with installations, one
    # BatchWriteItem per event (started, completed, content updated) and nothing else.
    assert with_one == {**without, "BatchWriteItem": without.get("BatchWriteItem", 0) + 3}


def test_a_space_leaving_its_collection_is_space_visibility_updated(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    holder = new_collection(api, ada, "Holder")
    space_id = space_in(api, ada, holder)
    seen = space_store.get_space(space_id)
    # `in-collection` is no visibility the API sets (a space is made private); one imported from
    # elsewhere may have it.
    table.transact([space_store.update_space_op(seen, replace(seen, visibility="in-collection"))])
    installation_id = installed_on(api, ada, space_id)
    assert moved(api, ada, "space", space_id, parent=None)["visibility"] == "private"
    deliver_queued()
    (changed,) = delivered(receiver, "space_visibility_updated")
    assert changed == {"eventId": changed["eventId"], "type": "space_visibility_updated",
                       "installationId": installation_id, "spaceId": space_id,
                       "previousVisibility": "in-collection", "visibility": "private"}
    moved(api, ada, "space", space_id, parent=holder)  # private stays private: no event
    deliver_queued()
    assert len(delivered(receiver, "space_visibility_updated")) == 1
