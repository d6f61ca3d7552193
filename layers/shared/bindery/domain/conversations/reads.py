"""The reads of ORG/conversations, ORG/conversations-issues and ORG/conversations-clusters.

Every member with the read role reads the organization's conversations, issues and clusters (guests do
not: conversations are the organization's customers' words). Each read starts with the organization and
the caller's membership (one BatchGetItem); what else each costs is in docs/conversations.md ("Reads").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import require_org_role
from bindery.domain.access.roles import Role
from bindery.platform.errors import NotFound
from bindery.platform.ids import plausible
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.store import conversation_issues as issue_store
from bindery.store import conversations as conversation_store
from bindery.store import issue_clusters as cluster_store
from bindery.store.batch_reads import items_by_key
from bindery.store.conversation_issues import Issue
from bindery.store.conversations import Conversation
from bindery.store.issue_clusters import Cluster

VIEW: Role = "read"
NO_CONVERSATION = "No matching conversation"
NO_ISSUE = "No matching conversation issue"
NO_CLUSTER = "No matching conversations issues cluster"
OrderBy = Literal["updatedAt", "issues", "conversations", "tasksTotal", "tasksBacklog", "tasksStarted"]
ClusterStatus = Literal["pending", "analysing"]


@dataclass(frozen=True)
class ConversationDetail:
    conversation: Conversation
    parts: list[dict[str, str]]


@dataclass(frozen=True)
class IssueView:
    issue: Issue
    conversation: Conversation


def _access(caller: Caller, org_id: str) -> None:
    require_org_role(caller, org_id, VIEW, "read conversations")


def list_conversations(caller: Caller, org_id: str, *, source: str | None, limit: int,
                       page: str | None) -> Listing[Conversation]:
    _access(caller, org_id)
    scope = f"conversations:{org_id}:{source or ''}"
    found = conversation_store.conversations_page(org_id, source, limit, open_page(scope, page).start)
    counters = conversation_store.get_counters(org_id)
    count = counters.conversations if source is None else counters.sources.get(source, 0)
    return Listing(conversation_store.conversations_from(found.items), next_page(scope, found.last_key),
                   count)


def get_conversation(caller: Caller, org_id: str, conversation_id: str) -> ConversationDetail:
    _access(caller, org_id)
    found = conversation_store.get_with_parts(conversation_id) if plausible(conversation_id) else None
    if found is None or found[0].org_id != org_id:
        raise NotFound(NO_CONVERSATION)
    return ConversationDetail(*found)


def _with_conversations(issues: list[Issue]) -> list[IssueView]:
    wanted = sorted({issue.conversation_id for issue in issues})
    items = list(items_by_key(conversation_store.conversation_key(cid) for cid in wanted).values())
    conversations = {c.id: c for c in conversation_store.conversations_from(items)}
    return [IssueView(issue, conversations[issue.conversation_id]) for issue in issues
            if issue.conversation_id in conversations]


def list_issues(caller: Caller, org_id: str, *, cluster: str | None, conversation: str | None, limit: int,
                page: str | None) -> Listing[IssueView]:
    _access(caller, org_id)
    scope = f"conversation-issues:{org_id}:{cluster or ''}:{conversation or ''}"
    start = open_page(scope, page).start
    if conversation is not None:
        return _conversation_issues(org_id, conversation, cluster, limit=limit, start=start, scope=scope)
    if cluster is not None:
        found_cluster = cluster_store.get_cluster(cluster) if plausible(cluster) else None
        if found_cluster is None or found_cluster.org_id != org_id:
            return Listing([], None, 0)
        count = found_cluster.issues
    else:
        count = conversation_store.get_counters(org_id).issues
    found = issue_store.issues_page(org_id, cluster, limit, start)
    issues = [issue for issue in issue_store.issues_from(found.items) if issue.org_id == org_id]
    return Listing(_with_conversations(issues), next_page(scope, found.last_key), count)


def _conversation_issues(org_id: str, conversation_id: str, cluster: str | None, *, limit: int,
                         start: dict[str, Any] | None, scope: str) -> Listing[IssueView]:
    """A conversation's issues, from its own list (a few): read consistently, paged by position."""
    found = conversation_store.get_conversation(conversation_id) if plausible(conversation_id) else None
    if found is None or found.org_id != org_id:
        return Listing([], None, 0)
    entries = [entry for entry in found.issues if cluster is None or entry["cluster"] == cluster]
    offset = int((start or {}).get("at", 0))
    chosen = entries[offset:offset + limit]
    items = list(items_by_key(issue_store.issue_key(entry["id"]) for entry in chosen).values())
    by_id = {issue.id: issue for issue in issue_store.issues_from(items)}
    views = [IssueView(by_id[entry["id"]], found) for entry in chosen if entry["id"] in by_id]
    more = {"at": offset + limit} if offset + limit < len(entries) else None
    return Listing(views, next_page(scope, more), len(entries))


def get_issue(caller: Caller, org_id: str, issue_id: str) -> IssueView:
    _access(caller, org_id)
    issue = issue_store.get_issue(issue_id) if plausible(issue_id) else None
    if issue is None or issue.org_id != org_id:
        raise NotFound(NO_ISSUE)
    conversation = conversation_store.get_conversation(issue.conversation_id)
    if conversation is None:
        raise NotFound(NO_ISSUE)
    return IssueView(issue, conversation)


def get_cluster(caller: Caller, org_id: str, cluster_id: str) -> Cluster:
    _access(caller, org_id)
    cluster = cluster_store.get_cluster(cluster_id) if plausible(cluster_id) else None
    if cluster is None or cluster.org_id != org_id:
        raise NotFound(NO_CLUSTER)
    return cluster


def status_of(cluster: Cluster) -> ClusterStatus | None:
    """`pending`: no change request names the cluster yet; `analysing`: one in draft or open does
    (docs/decisions.md). A cluster whose change requests are all merged or archived is neither."""
    if cluster.tasks["tasksTotal"] == 0:
        return "pending"
    if cluster.tasks["tasksBacklog"] + cluster.tasks["tasksStarted"] > 0:
        return "analysing"
    return None


def _sort_value(cluster: Cluster, order_by: OrderBy) -> Any:
    if order_by == "updatedAt":
        return cluster.updated_at
    if order_by in ("issues", "conversations"):
        return cluster.issues if order_by == "issues" else cluster.conversations
    return cluster.tasks[order_by]


def list_clusters(caller: Caller, org_id: str, *, order: Literal["asc", "desc"], order_by: OrderBy,
                  status: ClusterStatus | None, limit: int, page: str | None) -> Listing[Cluster]:
    """Sorted and filtered in memory: six orders and a filter on counters cannot each have an index, and
    an organization's clusters are read in one Query per 1,000 (docs/conversations.md). The cursor holds
    the last item's (value, id), so a page starts after it even when clusters came or went meanwhile."""
    _access(caller, org_id)
    scope = f"clusters:{org_id}:{order}:{order_by}:{status or ''}"
    start = open_page(scope, page).start
    clusters = [c for c in cluster_store.org_clusters(org_id) if status is None or status_of(c) == status]
    keyed = sorted(((_sort_value(c, order_by), c.id), c) for c in clusters)
    if order == "desc":
        keyed.reverse()
    if start is not None:
        last = (start.get("value"), start.get("id"))
        keyed = [(key, c) for key, c in keyed if (key > last if order == "asc" else key < last)]
    chosen = keyed[:limit]
    more = None
    if len(keyed) > limit:
        value, identifier = chosen[-1][0]
        more = {"value": value, "id": identifier}
    return Listing([c for _, c in chosen], next_page(scope, more), len(clusters))
