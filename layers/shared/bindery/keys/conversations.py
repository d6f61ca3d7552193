"""Keys of ingested conversations, their issues and the clusters of issues (docs/conversations.md,
docs/data-model.md).

A conversation, an issue and a cluster each have a partition of their own (`CONVERSATION#`, `CONVISSUE#`,
`CLUSTER#`): the API names each by its id alone, and ingestion spreads its writes over many partitions
rather than heating the organization's. The organization's listings are GSI partitions; what the worker
serialises on (the clustering state, the clusters' profiles) is one partition per organization.
"""

from __future__ import annotations

from bindery.keys import Key


def conversation(conversation_id: str) -> Key:
    return {"PK": f"CONVERSATION#{conversation_id}", "SK": "CONVERSATION"}


def conversation_parts(conversation_id: str) -> Key:
    return {"PK": f"CONVERSATION#{conversation_id}", "SK": "PARTS"}


def conversation_gsi(org_id: str, source: str, created_at: str, conversation_id: str) -> dict[str, str]:
    """GSI1: the organization's conversations, newest first; GSI2: the same for one source."""
    order = f"{created_at}#{conversation_id}"
    return {"GSI1PK": conversations_partition(org_id), "GSI1SK": order,
            "GSI2PK": source_partition(org_id, source), "GSI2SK": order}


def conversations_partition(org_id: str) -> str:
    return f"ORG#{org_id}#CONVERSATIONS"


def source_partition(org_id: str, source: str) -> str:
    return f"ORG#{org_id}#CONVERSATIONS#SOURCE#{source}"


def stats(org_id: str) -> Key:
    """The organization's conversation counters (not on the organization item: ingestion is frequent)."""
    return {"PK": f"ORG#{org_id}#INSIGHTS", "SK": "STATS"}


def issue(issue_id: str) -> Key:
    return {"PK": f"CONVISSUE#{issue_id}", "SK": "ISSUE"}


def issue_gsi(org_id: str, cluster_id: str, issue_id: str) -> dict[str, str]:
    """GSI1: the organization's issues; GSI2: a cluster's issues; both newest first (time-ordered ids)."""
    return {"GSI1PK": issues_partition(org_id), "GSI1SK": issue_id,
            "GSI2PK": cluster_issues_partition(cluster_id), "GSI2SK": issue_id}


def issues_partition(org_id: str) -> str:
    return f"ORG#{org_id}#ISSUES"


def cluster_issues_partition(cluster_id: str) -> str:
    return f"CLUSTER#{cluster_id}#ISSUES"


def cluster(cluster_id: str) -> Key:
    return {"PK": f"CLUSTER#{cluster_id}", "SK": "CLUSTER"}


def cluster_gsi(org_id: str, cluster_id: str) -> dict[str, str]:
    """GSI1: the organization's clusters (only while a cluster has issues: the attribute is sparse)."""
    return {"GSI1PK": clusters_partition(org_id), "GSI1SK": cluster_id}


def clusters_partition(org_id: str) -> str:
    return f"ORG#{org_id}#CLUSTERS"


CLUSTER_GSI_ATTRIBUTES = ("GSI1PK", "GSI1SK")


def clustering_partition(org_id: str) -> str:
    """The worker's state of an organization: one `STATE` item (its version) and each cluster's profile."""
    return f"ORG#{org_id}#CLUSTERING"


def clustering_state(org_id: str) -> Key:
    return {"PK": clustering_partition(org_id), "SK": "STATE"}


PROFILE_PREFIX = "PROFILE#"


def profile(org_id: str, cluster_id: str) -> Key:
    return {"PK": clustering_partition(org_id), "SK": f"{PROFILE_PREFIX}{cluster_id}"}


def parts_object(org_id: str, conversation_id: str, digest: str) -> str:
    """A conversation's parts too large for its item (S3)."""
    return f"conversations/{org_id}/{conversation_id}/{digest}.json"
