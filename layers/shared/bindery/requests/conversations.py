"""The ingest body (ingestConversation): one ConversationInput or an array of them, constrained as the
reference spec states them (id 1 to 255, subject ≤ 512, parts of the ConversationPartMessage variant).
`source` is Bindery's: the spec's ConversationInput has none, and its Conversation has one
(ConversationSource); docs/decisions.md says where it comes from."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from bindery.platform.errors import BadRequest
from bindery.requests.common import Body, Text

# ConversationSource: `integration:{integration}:{installation}` or `email`.
SOURCE_PATTERN = r"^(integration:[^:]+:[^:]+|email)$"
ConversationSourceText = Annotated[str, StringConstraints(max_length=255, pattern=SOURCE_PATTERN)]
MAX_CONVERSATIONS = 100  # per request (docs/decisions.md)
MAX_PARTS = 500
MAX_ATTRIBUTES = 50


class ConversationPartMessage(Body):
    type: Literal["message"]
    role: Literal["user", "assistant", "team-member"]
    body: Annotated[Text, Field(max_length=100_000)]


class ConversationMetadata(Body):
    url: Annotated[str, StringConstraints(max_length=2048)] | None = None
    # Bounded so that a conversation's item stays far below DynamoDB's 400 KB.
    attributes: Annotated[dict[Annotated[str, StringConstraints(max_length=255)],
                               Annotated[str, StringConstraints(max_length=2048)]],
                          Field(max_length=MAX_ATTRIBUTES)] | None = None
    createdAt: datetime | None = None


class ConversationInput(Body):
    id: Annotated[str, StringConstraints(min_length=1, max_length=255)]
    metadata: ConversationMetadata | None = None
    subject: Annotated[str, StringConstraints(max_length=512)] | None = None
    parts: Annotated[list[ConversationPartMessage], Field(max_length=MAX_PARTS)]
    source: ConversationSourceText | None = None


# A plain list in the union: Powertools hands a list body whole only to a field its sequence check
# recognises (an `Annotated` list is not), so the array's length is checked by `conversations`.
ConversationsBody = list[ConversationInput] | ConversationInput


def conversations(body: ConversationsBody) -> list[ConversationInput]:
    """The body's conversations (1 to MAX_CONVERSATIONS of them)."""
    if not isinstance(body, list):
        return [body]
    if not 1 <= len(body) <= MAX_CONVERSATIONS:
        raise BadRequest(f"body: an array of 1 to {MAX_CONVERSATIONS} conversations")
    return body
