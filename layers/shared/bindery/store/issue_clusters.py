"""Clusters of conversation issues, and the conversations worker's clustering state (keys in
bindery.keys.conversations; docs/conversations.md).

    {PK: CLUSTER#{id}, SK: CLUSTER, type: "issues-cluster", id, orgId, label, summary, icon, createdAt,
     updatedAt, issues, conversations, "source:{source}": issues, "week:{YYYY-Www}": issues,
     tasksTotal, tasksBacklog, tasksStarted, tasksCompleted, tasksCancelled, GSI1 while it has issues}
    {PK: ORG#{orgId}#CLUSTERING, SK: STATE, version}
    {PK: ORG#{orgId}#CLUSTERING, SK: PROFILE#{clusterId}, profile (the engine's JSON), samples}

Every write of the worker to an organization's clusters is conditioned on the state's `version` it read
and moves it on: two workers never assign issues from the same clusters at once (the second one's
transaction fails and it starts over), so the counters stay exact. The `tasks*` counters are the change
requests that name the cluster, by status (moved in the change requests' own transactions, `tasks_op`):
the worker never writes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery.keys import conversations as conv_keys
from bindery.store import table
from bindery.store.batch_reads import items_by_key
from bindery.store.table import Item

SOURCE = "source:"
WEEK = "week:"
TASKS = ("tasksTotal", "tasksBacklog", "tasksStarted", "tasksCompleted", "tasksCancelled")
# A change request's status → the cluster counter that counts it (besides tasksTotal).
TASK_COUNTERS = {"draft": "tasksBacklog", "open": "tasksStarted", "merged": "tasksCompleted",
                 "archived": "tasksCancelled"}
MAX_SAMPLES = 10  # the issues a cluster's label and summary are described from


@dataclass
class Cluster:
    id: str
    org_id: str
    label: str
    summary: str
    icon: str
    created_at: str
    updated_at: str
    issues: int = 0
    conversations: int = 0
    sources: dict[str, int] = field(default_factory=dict)
    weeks: dict[str, int] = field(default_factory=dict)
    tasks: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TASKS, 0))

    @classmethod
    def from_item(cls, item: Item) -> Cluster:
        sources = {n[len(SOURCE):]: int(v) for n, v in item.items() if n.startswith(SOURCE) and int(v)}
        weeks = {n[len(WEEK):]: int(v) for n, v in item.items() if n.startswith(WEEK) and int(v)}
        return cls(id=item["id"], org_id=item["orgId"], label=item.get("label", ""),
                   summary=item.get("summary", ""), icon=item.get("icon", ""), created_at=item["createdAt"],
                   updated_at=item["updatedAt"], issues=int(item.get("issues", 0)),
                   conversations=int(item.get("conversations", 0)), sources=sources, weeks=weeks,
                   tasks={name: int(item.get(name, 0)) for name in TASKS})


@dataclass(frozen=True)
class Profile:
    """What the worker keeps of a cluster to assign issues to it: the engine's profile, and the issues
    its description comes from ([{id, title, summary}], the latest MAX_SAMPLES)."""

    cluster_id: str
    profile: str
    samples: list[dict[str, str]]


@dataclass
class ClusterChange:
    """What one conversation's processing does to one cluster (deltas, and its description anew)."""

    cluster_id: str
    issues: int = 0
    conversations: int = 0
    sources: dict[str, int] = field(default_factory=dict)
    weeks: dict[str, int] = field(default_factory=dict)


# --- reads -----------------------------------------------------------------------------------------------
def get_cluster(cluster_id: str) -> Cluster | None:
    item = table.get(conv_keys.cluster(cluster_id))
    return Cluster.from_item(item) if item and int(item.get("issues", 0)) > 0 else None


def cluster_in_org(cluster_id: str, org_id: str) -> bool:
    """Whether the organization has this cluster (with issues): one GetItem."""
    cluster = get_cluster(cluster_id)
    return cluster is not None and cluster.org_id == org_id


def get_clusters(cluster_ids: set[str]) -> dict[str, Cluster]:
    """The clusters (emptied ones too), by id: one BatchGetItem per 100."""
    found = items_by_key(conv_keys.cluster(cluster_id) for cluster_id in sorted(cluster_ids))
    return {item["id"]: Cluster.from_item(item) for item in found.values()}


def org_clusters(org_id: str) -> list[Cluster]:
    """Every cluster of the organization that has issues: one GSI1 Query per 1 MB (a cluster item is
    small; the profiles are elsewhere)."""
    clusters: list[Cluster] = []
    start: dict[str, Any] | None = None
    while True:
        page = table.Query(conv_keys.clusters_partition(org_id), index="GSI1", limit=1000,
                           start_key=start).run()
        clusters.extend(Cluster.from_item(item) for item in page.items)
        start = page.last_key
        if start is None:
            return clusters


@dataclass(frozen=True)
class ClusteringState:
    """Where an organization's clustering is: `version` orders the worker's writes, `stamp` (a new id
    with each) names the exact state, so a worker's cache of the profiles is valid while it is the same."""

    version: int = 0
    stamp: str = ""


def clustering_state(org_id: str) -> ClusteringState:
    item = table.get(conv_keys.clustering_state(org_id))
    return ClusteringState(int(item["version"]), str(item.get("stamp", ""))) if item else ClusteringState()


def profiles(org_id: str) -> dict[str, Profile]:
    """Every cluster profile of the organization (consistent Query pages of its clustering partition)."""
    found: dict[str, Profile] = {}
    start: dict[str, Any] | None = None
    while True:
        page = table.Query(conv_keys.clustering_partition(org_id), prefix=conv_keys.PROFILE_PREFIX,
                           limit=1000, start_key=start).run()
        for item in page.items:
            found[item["clusterId"]] = Profile(item["clusterId"], item["profile"], list(item["samples"]))
        start = page.last_key
        if start is None:
            return found


# --- the worker's writes ----------------------------------------------------------------------------------
def state_op(org_id: str, seen: ClusteringState, stamp: str) -> table.Op:
    """Move the organization's clustering on from the state read (fails if another worker did)."""
    condition = "attribute_not_exists(PK)" if seen.version == 0 else "version = :seen"
    values: dict[str, Any] = {":next": seen.version + 1, ":stamp": stamp}
    if seen.version:
        values[":seen"] = seen.version
    return table.update_op(conv_keys.clustering_state(org_id), "SET version = :next, stamp = :stamp", values,
                           condition, name="clustering-state")


def _counter_names(change: ClusterChange) -> dict[str, int]:
    moves = {"issues": change.issues, "conversations": change.conversations}
    moves.update({SOURCE + source: n for source, n in change.sources.items()})
    moves.update({WEEK + week: n for week, n in change.weeks.items()})
    return {name: delta for name, delta in moves.items() if delta}


def create_op(cluster: Cluster, change: ClusterChange) -> table.Op:
    item: Item = {**conv_keys.cluster(cluster.id), "type": "issues-cluster",
                  **conv_keys.cluster_gsi(cluster.org_id, cluster.id), "id": cluster.id,
                  "orgId": cluster.org_id, "label": cluster.label, "summary": cluster.summary,
                  "icon": cluster.icon, "createdAt": cluster.created_at, "updatedAt": cluster.updated_at,
                  **dict.fromkeys(TASKS, 0), **_counter_names(change)}
    return table.put_op(item, "attribute_not_exists(PK)", name="cluster")


def change_op(cluster: Cluster, change: ClusterChange, *, emptied: bool) -> table.Op:
    """ADD the change's deltas, describe the cluster anew; an emptied cluster leaves the listings (its
    item stays: change requests may still name it)."""
    counters = _counter_names(change)
    names = {f"#n{i}": name for i, name in enumerate(counters)}
    values: dict[str, Any] = {f":n{i}": delta for i, delta in enumerate(counters.values())}
    values.update({":label": cluster.label, ":summary": cluster.summary, ":icon": cluster.icon,
                   ":at": cluster.updated_at})
    expression = "SET label = :label, summary = :summary, icon = :icon, updatedAt = :at"
    if counters:
        expression += " ADD " + ", ".join(f"{alias} :{alias[1:]}" for alias in names)
    if emptied:
        expression += " REMOVE " + ", ".join(conv_keys.CLUSTER_GSI_ATTRIBUTES)
    return table.update_op(conv_keys.cluster(cluster.id), expression, values, "attribute_exists(PK)",
                           names or None, name="cluster")


def profile_put_op(org_id: str, profile: Profile) -> table.Op:
    return table.put_op({**conv_keys.profile(org_id, profile.cluster_id), "type": "cluster-profile",
                         "clusterId": profile.cluster_id, "profile": profile.profile,
                         "samples": profile.samples[-MAX_SAMPLES:]}, name="profile")


def profile_delete_op(org_id: str, cluster_id: str) -> table.Op:
    return table.delete_op(conv_keys.profile(org_id, cluster_id), name="profile")


# --- change requests ----------------------------------------------------------------------------------------
def tasks_op(cluster_id: str, old_status: str | None, new_status: str | None) -> table.Op | None:
    """Move the cluster's task counters with a change request that names it: created (old None), moved
    from one status to another. None when nothing moves. Conditioned on the cluster existing, so a
    counter is never written into a cluster item that is not there."""
    deltas: dict[str, int] = {}
    if old_status is None:
        deltas["tasksTotal"] = 1
    for status, sign in ((old_status, -1), (new_status, 1)):
        if status in TASK_COUNTERS:
            name = TASK_COUNTERS[status]
            deltas[name] = deltas.get(name, 0) + sign
    deltas = {name: delta for name, delta in deltas.items() if delta}
    if not deltas:
        return None
    names = {f"#t{i}": name for i, name in enumerate(deltas)}
    values = {f":t{i}": delta for i, delta in enumerate(deltas.values())}
    return table.update_op(conv_keys.cluster(cluster_id),
                           "ADD " + ", ".join(f"{alias} :{alias[1:]}" for alias in names), values,
                           "attribute_exists(PK)", names, name="cluster-tasks")
