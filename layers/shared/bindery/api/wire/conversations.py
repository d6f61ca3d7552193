"""Conversations, issues and clusters on the wire (models in bindery.api.responses.conversations)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bindery.api.responses.conversations import (
    Conversation,
    ConversationDetail,
    ConversationIssue,
    ConversationIssueWithConversation,
    ConversationsIssuesCluster,
)
from bindery.api.wire.urls import api_url, app_url
from bindery.platform import clock
from bindery.store.conversation_issues import Issue
from bindery.store.conversations import Conversation as StoredConversation
from bindery.store.issue_clusters import Cluster

PULSE_WEEKS = 13


def conversation_body(conversation: StoredConversation) -> dict[str, Any]:
    location = api_url(f"/orgs/{conversation.org_id}/conversations/{conversation.id}")
    urls: dict[str, str] = {"location": location}
    source_url = (conversation.metadata or {}).get("url")
    if isinstance(source_url, str) and source_url.startswith(("http://", "https://")):
        urls["source"] = source_url  # the spec's format is a URI: anything else stays in the metadata
    body: dict[str, Any] = {"object": "conversation", "id": conversation.id,
                            "createdAt": conversation.created_at, "source": conversation.source, "urls": urls}
    if conversation.subject is not None:
        body["subject"] = conversation.subject
    if conversation.processed_at is not None and conversation.processed_rev == conversation.rev:
        body["processedAt"] = conversation.processed_at
    return body


def conversation_to_wire(conversation: StoredConversation) -> Conversation:
    return Conversation.model_validate(conversation_body(conversation))


def detail_to_wire(conversation: StoredConversation, parts: list[dict[str, str]]) -> ConversationDetail:
    return ConversationDetail.model_validate({"conversation": conversation_body(conversation), "parts": parts,
                                              "metadata": conversation.metadata or {}})


def issue_body(issue: Issue) -> dict[str, Any]:
    return {"object": "conversation-issue", "id": issue.id, "title": issue.title, "summary": issue.summary,
            "createdAt": issue.created_at, "ingestedAt": issue.ingested_at,
            "conversation": issue.conversation_id, "cluster": issue.cluster_id,
            "urls": {"location": api_url(f"/orgs/{issue.org_id}/conversations-issues/{issue.id}")}}


def issue_to_wire(issue: Issue, conversation: StoredConversation) -> ConversationIssueWithConversation:
    return ConversationIssueWithConversation.model_validate(
        {"issue": ConversationIssue.model_validate(issue_body(issue)),
         "conversation": conversation_body(conversation)})


def pulse_weeks() -> list[str]:
    """The 13 ISO weeks of the pulse, oldest first, the current week (bindery.platform.clock) last."""
    now = clock.now()
    return [clock.iso_week(now - timedelta(weeks=back)) for back in range(PULSE_WEEKS - 1, -1, -1)]


def cluster_to_wire(cluster: Cluster) -> ConversationsIssuesCluster:
    return ConversationsIssuesCluster.model_validate({
        "object": "issues-cluster", "id": cluster.id, "label": cluster.label, "createdAt": cluster.created_at,
        "updatedAt": cluster.updated_at, "icon": cluster.icon, "summary": cluster.summary,
        "weeklyPulse": [cluster.weeks.get(week, 0) for week in pulse_weeks()],
        "sources": cluster.sources,
        "stats": {"issues": cluster.issues, "conversations": cluster.conversations, **cluster.tasks},
        "urls": {"location": api_url(f"/orgs/{cluster.org_id}/conversations-clusters/{cluster.id}"),
                 "app": app_url(f"/o/{cluster.org_id}/insights/clusters/{cluster.id}")}})
