"""Conversations, issues and clusters (store/conversations.py, store/conversation_issues.py,
store/issue_clusters.py) on every engine (moto, DynamoDB Local): the conditional writes that make
ingestion idempotent and the worker's results exact, and the counters with free-form names (a source, an
ISO week) that move with them."""

from __future__ import annotations

import pytest

from bindery.platform.errors import TransactionConflict
from bindery.store import Transaction
from bindery.store import conversation_issues as issue_store
from bindery.store import conversations as conversation_store
from bindery.store import issue_clusters as cluster_store
from bindery.store.conversation_issues import Issue
from bindery.store.conversations import Conversation
from bindery.store.issue_clusters import Cluster, ClusterChange, ClusteringState, Profile

pytestmark = pytest.mark.repository

AT = "2026-11-20T10:00:00.000Z"
SOURCE = "integration:intercom:inst#1"
PARTS = [{"type": "message", "role": "user", "body": "Login fails"}]


def _conversation(rev: str = "r1", **extra: object) -> Conversation:
    return Conversation(id="c1", org_id="o1", source=SOURCE, external_id="ticket/1", created_at=AT,
                        ingested_at=AT, digest="d1", rev=rev, subject="Login", **extra)  # type: ignore[arg-type]


def test_a_conversation_is_created_once_and_counted_per_source() -> None:
    conversation = _conversation()
    Transaction(conversation_store.create_ops(conversation, PARTS)).commit()
    with pytest.raises(TransactionConflict):
        Transaction(conversation_store.create_ops(conversation, PARTS)).commit()
    counters = conversation_store.get_counters("o1")
    assert (counters.conversations, counters.sources) == (1, {SOURCE: 1})
    stored, parts = conversation_store.get_with_parts("c1") or (None, None)
    assert stored == conversation
    assert parts == PARTS
    page = conversation_store.conversations_page("o1", SOURCE, 10, None)
    assert [item["id"] for item in page.items] == ["c1"]


def test_large_parts_live_in_the_object_store() -> None:
    import os

    body = os.urandom(400_000).hex()  # incompressible: more than an item holds
    parts = [{"type": "message", "role": "user", "body": body}]
    Transaction(conversation_store.create_ops(_conversation(), parts)).commit()
    assert (conversation_store.get_with_parts("c1") or (None, None))[1] == parts


def test_a_replacement_and_a_result_hold_only_for_the_revision_read() -> None:
    first = _conversation()
    Transaction(conversation_store.create_ops(first, PARTS)).commit()
    Transaction(conversation_store.replace_ops(_conversation("r2"), PARTS, first)).commit()
    with pytest.raises(TransactionConflict):
        Transaction(conversation_store.replace_ops(_conversation("r3"), PARTS, first)).commit()
    with pytest.raises(TransactionConflict):
        Transaction(conversation_store.processed_op(_conversation("r1"), [], AT)).commit()
    entries = [{"id": "i1", "cluster": "k1", "week": "2026-W47"}]
    Transaction(conversation_store.processed_op(_conversation("r2"), entries, AT)).commit()
    stored = conversation_store.get_conversation("c1")
    assert stored is not None
    assert (stored.rev, stored.processed_rev, stored.issues) == ("r2", "r2", entries)
    # Read before the result landed: the replacement would drop its issues, so it is refused.
    before_result = _conversation("r2")
    with pytest.raises(TransactionConflict):
        Transaction(conversation_store.replace_ops(_conversation("r3"), PARTS, before_result)).commit()
    Transaction(conversation_store.replace_ops(_conversation("r3"), PARTS, stored)).commit()


def test_the_clustering_version_lets_one_writer_through() -> None:
    first = cluster_store.clustering_state("o1")
    assert first == ClusteringState(0, "")
    Transaction(cluster_store.state_op("o1", first, "s1")).commit()
    with pytest.raises(TransactionConflict):
        Transaction(cluster_store.state_op("o1", first, "s2")).commit()
    Transaction(cluster_store.state_op("o1", cluster_store.clustering_state("o1"), "s3")).commit()
    assert cluster_store.clustering_state("o1") == ClusteringState(2, "s3")


def test_cluster_counters_move_with_free_form_names_and_an_emptied_cluster_leaves_the_listing() -> None:
    cluster = Cluster(id="k1", org_id="o1", label="Login", summary="Login fails", icon="lock", created_at=AT,
                      updated_at=AT)
    added = ClusterChange("k1", issues=2, conversations=1, sources={SOURCE: 2}, weeks={"2026-W47": 2})
    Transaction(cluster_store.create_op(cluster, added),
                cluster_store.profile_put_op("o1", Profile("k1", "{}", [{"id": "i1"}]))).commit()
    more = ClusterChange("k1", issues=1, sources={"email": 1}, weeks={"2026-W48": 1})
    Transaction(cluster_store.change_op(cluster, more, emptied=False)).commit()
    stored = cluster_store.get_cluster("k1")
    assert stored is not None
    assert (stored.issues, stored.conversations) == (3, 1)
    assert stored.sources == {SOURCE: 2, "email": 1}
    assert stored.weeks == {"2026-W47": 2, "2026-W48": 1}
    assert [c.id for c in cluster_store.org_clusters("o1")] == ["k1"]
    assert set(cluster_store.profiles("o1")) == {"k1"}
    gone = ClusterChange("k1", issues=-3, conversations=-1, sources={SOURCE: -2, "email": -1},
                         weeks={"2026-W47": -2, "2026-W48": -1})
    Transaction(cluster_store.change_op(cluster, gone, emptied=True),
                cluster_store.profile_delete_op("o1", "k1")).commit()
    assert cluster_store.get_cluster("k1") is None
    assert cluster_store.org_clusters("o1") == []
    assert cluster_store.profiles("o1") == {}


def test_task_counters_follow_a_change_request_and_never_make_a_cluster() -> None:
    cluster = Cluster(id="k1", org_id="o1", label="Login", summary="", icon="lock", created_at=AT,
                      updated_at=AT)
    Transaction(cluster_store.create_op(cluster, ClusterChange("k1", issues=1))).commit()
    for old, new in ((None, "open"), ("open", "draft"), ("draft", "merged")):
        op = cluster_store.tasks_op("k1", old, new)
        assert op is not None
        Transaction(op).commit()
    stored = cluster_store.get_cluster("k1")
    assert stored is not None
    assert stored.tasks == {"tasksTotal": 1, "tasksBacklog": 0, "tasksStarted": 0, "tasksCompleted": 1,
                            "tasksCancelled": 0}
    assert cluster_store.tasks_op("k1", "open", "open") is None
    missing = cluster_store.tasks_op("nothing", None, "open")
    assert missing is not None
    with pytest.raises(TransactionConflict):
        Transaction(missing).commit()


def test_issues_are_listed_by_organization_and_by_cluster() -> None:
    for issue_id, cluster_id in (("i1", "k1"), ("i2", "k2"), ("i3", "k1")):
        Transaction(issue_store.put_op(Issue(id=issue_id, org_id="o1", conversation_id="c1",
                                             cluster_id=cluster_id, title="t", summary="s", created_at=AT,
                                             ingested_at=AT))).commit()
    assert [item["id"] for item in issue_store.issues_page("o1", None, 10, None).items] == ["i3", "i2", "i1"]
    assert [item["id"] for item in issue_store.issues_page("o1", "k1", 10, None).items] == ["i3", "i1"]
    Transaction(issue_store.delete_op("i3")).commit()
    assert issue_store.get_issue("i3") is None
    assert [item["id"] for item in issue_store.issues_page("o1", "k1", 10, None).items] == ["i1"]
