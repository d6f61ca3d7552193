"""Conversations, their issues and clusters, as the reference spec declares them (Conversation,
ConversationPartMessage, ConversationMetadata, ConversationIssue, ConversationsIssuesCluster)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import Location, Timestamp


class ConversationUrls(WireModel):
    location: str
    source: Omitted[str] = None


class Conversation(WireModel):
    object: Literal["conversation"]
    id: str
    subject: Omitted[str] = None
    createdAt: Timestamp
    processedAt: Omitted[Timestamp] = None
    source: str
    urls: ConversationUrls


class ConversationList(ListPage):
    items: list[Conversation]


class ConversationPartMessage(WireModel):
    type: Literal["message"]
    role: Literal["user", "assistant", "team-member"]
    body: str


class ConversationMetadata(WireModel):
    url: Omitted[str] = None
    attributes: Omitted[dict[str, str]] = None
    createdAt: Omitted[Timestamp] = None


class ConversationDetail(WireModel):
    conversation: Conversation
    parts: list[ConversationPartMessage]
    metadata: ConversationMetadata


class ConversationIssue(WireModel):
    object: Literal["conversation-issue"]
    id: str
    title: str
    summary: str
    createdAt: Timestamp
    ingestedAt: Timestamp
    conversation: str
    cluster: Omitted[str] = None
    urls: Location


class ConversationIssueWithConversation(WireModel):
    issue: ConversationIssue
    conversation: Conversation


class ConversationIssueList(ListPage):
    items: list[ConversationIssueWithConversation]


class ClusterStats(WireModel):
    issues: int
    conversations: int
    tasksTotal: int
    tasksBacklog: int
    tasksStarted: int
    tasksCompleted: int
    tasksCancelled: int


class ClusterUrls(WireModel):
    location: str
    app: str


class ConversationsIssuesCluster(WireModel):
    object: Literal["issues-cluster"]
    id: str
    label: str
    createdAt: Timestamp
    updatedAt: Timestamp
    icon: Annotated[str, Field(max_length=50)]
    summary: str
    weeklyPulse: Annotated[list[int], Field(min_length=13, max_length=13)]
    sources: dict[str, int]
    stats: ClusterStats
    urls: ClusterUrls


class ConversationsIssuesClusterList(ListPage):
    items: list[ConversationsIssuesCluster]
