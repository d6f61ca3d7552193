"""What narrows a listing of change requests (a space's, an organization's): the FilterExpression over the
change-request item's attributes, which only the store names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boto3.dynamodb.conditions import Attr


@dataclass(frozen=True)
class Filters:
    status: str = "open"
    creator: str | None = None
    contributor: str | None = None
    requested_reviewer: str | None = None
    conversations_issues_cluster: str | None = None

    def expression(self) -> Any:
        """The filter of the status's listing (the status is its partition, not a filter); None: none."""
        conditions: list[Any] = []
        if self.creator:
            conditions.append(Attr("createdBy").eq(self.creator))
        if self.contributor:
            conditions.append(Attr("contributors").contains(self.contributor))
        if self.requested_reviewer:
            conditions.append(Attr("requestedReviewers").contains(self.requested_reviewer))
        if self.conversations_issues_cluster:
            conditions.append(Attr("conversationsIssuesCluster").eq(self.conversations_issues_cluster))
        if not conditions:
            return None
        combined: Any = conditions[0]
        for condition in conditions[1:]:
            combined = combined & condition
        return combined
