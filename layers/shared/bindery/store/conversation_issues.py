"""Issues found in conversations (keys in bindery.keys.conversations; docs/conversations.md).

    {PK: CONVISSUE#{id}, SK: ISSUE, type: "conversation-issue", id, orgId, conversation, cluster, title,
     summary, createdAt, ingestedAt, GSI1 (organization) / GSI2 (cluster)}

Only the conversations worker writes them, in the transaction that records its result on the
conversation (whose `issues` list is what re-processing replaces: it is read consistently, the indexes
are not).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.keys import conversations as conv_keys
from bindery.store import table
from bindery.store.table import Item


@dataclass(frozen=True)
class Issue:
    id: str
    org_id: str
    conversation_id: str
    cluster_id: str
    title: str
    summary: str
    created_at: str
    ingested_at: str

    def to_item(self) -> Item:
        return {**conv_keys.issue(self.id), "type": "conversation-issue",
                **conv_keys.issue_gsi(self.org_id, self.cluster_id, self.id),
                "id": self.id, "orgId": self.org_id, "conversation": self.conversation_id,
                "cluster": self.cluster_id, "title": self.title, "summary": self.summary,
                "createdAt": self.created_at, "ingestedAt": self.ingested_at}

    @classmethod
    def from_item(cls, item: Item) -> Issue:
        return cls(id=item["id"], org_id=item["orgId"], conversation_id=item["conversation"],
                   cluster_id=item["cluster"], title=item["title"], summary=item["summary"],
                   created_at=item["createdAt"], ingested_at=item["ingestedAt"])


def get_issue(issue_id: str) -> Issue | None:
    item = table.get(conv_keys.issue(issue_id))
    return Issue.from_item(item) if item else None


def issue_key(issue_id: str) -> dict[str, str]:
    return conv_keys.issue(issue_id)


def issues_from(items: list[Item]) -> list[Issue]:
    return [Issue.from_item(item) for item in items if item.get("type") == "conversation-issue"]


def issues_page(org_id: str, cluster_id: str | None, limit: int,
                start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of the organization's issues (or of one cluster's), newest first."""
    if cluster_id is None:
        query = table.Query(conv_keys.issues_partition(org_id), index="GSI1", forward=False, limit=limit,
                            start_key=start_key)
    else:
        query = table.Query(conv_keys.cluster_issues_partition(cluster_id), index="GSI2", forward=False,
                            limit=limit, start_key=start_key)
    return query.run()


def put_op(issue: Issue) -> table.Op:
    return table.put_op(issue.to_item(), "attribute_not_exists(PK)", name="issue")


def delete_op(issue_id: str) -> table.Op:
    return table.delete_op(conv_keys.issue(issue_id), name="old-issue")
