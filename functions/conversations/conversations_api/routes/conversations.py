"""ORG/conversations: ingest (one conversation or an array), list, and read one with its parts."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from bindery.api.dependencies import page_limit
from bindery.api.responses.conversations import ConversationDetail, ConversationList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.conversations import conversation_to_wire, detail_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain.conversations import ingest, reads
from bindery.requests.conversations import ConversationsBody, conversations

router = Router()


@router.post("/orgs/<organizationId>/conversations", status_code=204)
def ingest_conversation(organizationId: str, who: Who,
                        body: Annotated[ConversationsBody, Body()]) -> Response[str]:
    ingest.ingest(who, organizationId, conversations(body))
    return Response(status_code=204, body="")


@router.get("/orgs/<organizationId>/conversations")
def list_conversations(organizationId: str, who: Who, *,
                       source: Annotated[str | None, Query(min_length=1, max_length=255)] = None,
                       page: PageCursor = None, limit: PageLimit = None) -> ConversationList:
    found = reads.list_conversations(who, organizationId, source=source, limit=page_limit(limit), page=page)
    return list_page(ConversationList, found, conversation_to_wire)


@router.get("/orgs/<organizationId>/conversations/<conversationId>")
def get_conversation(organizationId: str, conversationId: str, who: Who) -> ConversationDetail:
    found = reads.get_conversation(who, organizationId, conversationId)
    return detail_to_wire(found.conversation, found.parts)
