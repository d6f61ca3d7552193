"""ORG/conversations-issues: the issues found in conversations (by cluster, by conversation), and one."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.conversations import ConversationIssueList, ConversationIssueWithConversation
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.conversations import issue_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.conversations import reads
from bindery.domain.conversations.reads import IssueView

router = Router()
Filter = Annotated[str | None, Query(min_length=1, max_length=128)]


def _wire(view: IssueView) -> ConversationIssueWithConversation:
    return issue_to_wire(view.issue, view.conversation)


@router.get("/orgs/<organizationId>/conversations-issues")
def list_issues(organizationId: str, who: Who, *, cluster: Filter = None,
                conversation: Filter = None, page: PageCursor = None,
                limit: PageLimit = None) -> ConversationIssueList:
    found = reads.list_issues(who, organizationId, cluster=cluster, conversation=conversation,
                              limit=page_limit(limit), page=page)
    return list_page(ConversationIssueList, found, _wire)


@router.get("/orgs/<organizationId>/conversations-issues/<issueId>")
def get_issue(organizationId: str, issueId: str, who: Who) -> ConversationIssueWithConversation:
    return _wire(reads.get_issue(who, organizationId, issueId))
