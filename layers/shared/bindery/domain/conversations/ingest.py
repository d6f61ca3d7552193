"""POST ORG/conversations: store each conversation (idempotent on its source and id) and queue its
processing (ConversationsWorker, bindery.domain.conversations.processing).

Who may ingest: a member with the organization's `ingestConversations` permission (admins), or an
installation token with the `conversations:ingest` scope whose installation is on the organization. The
source is the installation's own (`integration:{integration}:{installationId}`) for an installation, and
`email` for a member: a source naming an installation (`integration:…`) is that installation's alone,
so a member naming one is refused (403 naming `source`), whichever organization's it is (docs/decisions.md).

A new conversation is one transaction (the conversation, its parts, the organization's counters); one
ingested again with the same content changes nothing, and with other content replaces its item under a
new revision, which the worker processes again (its old issues replaced). A request's messages go out in
one SendMessageBatch per 10 conversations, after every write.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.installation_scopes import CONVERSATIONS_INGEST
from bindery.domain.access.installations import require_installation_scope
from bindery.domain.access.organization import require_org_role
from bindery.platform import clock, queues
from bindery.platform.config import settings
from bindery.platform.errors import BadRequest, Conflict, Forbidden
from bindery.platform.ids import new_id
from bindery.platform.messages import ConversationMessage, Message
from bindery.requests.conversations import ConversationInput
from bindery.store import Transaction, TransactionConflict
from bindery.store import conversations as conversation_store
from bindery.store.conversations import Conversation

EMAIL = "email"


def _source(caller: Caller, org_id: str, inputs: list[ConversationInput]) -> str | None:
    """The installation's source, or None for a member (each input's own); checks the caller may ingest."""
    grant = caller.installation
    if grant is None:
        require_org_role(caller, org_id, "admin", "ingest conversations")
        for index, given in enumerate(inputs):
            if given.source is not None and given.source != EMAIL:
                where = "source" if len(inputs) == 1 else f"{index}.source"
                raise Forbidden(f"{where}: only an installation's own token ingests as an integration's "
                                f"source; a member's conversations are {EMAIL}")
        return None
    require_installation_scope(caller, org_id, CONVERSATIONS_INGEST)
    source = f"integration:{grant.integration}:{grant.installation_id}"
    for index, given in enumerate(inputs):
        if given.source is not None and given.source != source:
            where = "source" if len(inputs) == 1 else f"{index}.source"
            raise BadRequest(f"{where}: an installation ingests as its own source, {source}")
    return source


def conversation_id(org_id: str, source: str, external_id: str) -> str:
    """The same conversation (organization, source, id) always has the same id."""
    return hashlib.sha256("\0".join((org_id, source, external_id)).encode()).hexdigest()[:24]


def _metadata(given: ConversationInput) -> dict[str, Any] | None:
    if given.metadata is None:
        return None
    metadata: dict[str, Any] = {}
    if given.metadata.url is not None:
        metadata["url"] = given.metadata.url
    if given.metadata.attributes is not None:
        metadata["attributes"] = given.metadata.attributes
    if given.metadata.createdAt is not None:
        moment = given.metadata.createdAt
        # A date-time without an offset is taken as UTC (the wire's own timestamps all are).
        metadata["createdAt"] = clock.iso(moment if moment.tzinfo else moment.replace(tzinfo=UTC))
    return metadata


def _store(org_id: str, source: str, given: ConversationInput, now: str) -> Message | None:
    """Write one conversation; the message to queue (None: the same content was ingested already and is
    processed)."""
    parts = [{"type": part.type, "role": part.role, "body": part.body} for part in given.parts]
    metadata = _metadata(given)
    content = {"subject": given.subject, "metadata": metadata, "parts": parts}
    digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()
    identifier = conversation_id(org_id, source, given.id)
    created_at = (metadata or {}).get("createdAt") or now
    fresh = Conversation(id=identifier, org_id=org_id, source=source, external_id=given.id,
                         created_at=created_at, ingested_at=now, digest=digest, rev=new_id(),
                         subject=given.subject, metadata=metadata)
    try:
        Transaction(conversation_store.create_ops(fresh, parts)).commit()
        return ConversationMessage(organizationId=org_id, conversationId=identifier, rev=fresh.rev)
    except TransactionConflict:
        pass
    for _ in range(3):
        seen = conversation_store.get_conversation(identifier)
        if seen is None:
            break
        if seen.digest == digest:
            # Nothing new; a revision still unprocessed is queued again (its message may have been lost).
            if seen.processed_rev == seen.rev:
                return None
            return ConversationMessage(organizationId=org_id, conversationId=identifier, rev=seen.rev)
        fresh.created_at = (metadata or {}).get("createdAt") or seen.created_at
        fresh.issues, fresh.processed_rev = seen.issues, seen.processed_rev
        fresh.rev = new_id()
        try:
            Transaction(conversation_store.replace_ops(fresh, parts, seen)).commit()
            return ConversationMessage(organizationId=org_id, conversationId=identifier, rev=fresh.rev)
        except TransactionConflict:
            continue  # the worker or another ingest moved it: read it again
    raise Conflict("The conversation changed while this request ran; send it again")


def ingest(caller: Caller, org_id: str, inputs: list[ConversationInput]) -> None:
    own_source = _source(caller, org_id, inputs)
    queue_url = settings().required_queue_url("conversations_queue_url")
    now = clock.now_iso()
    messages = [message for given in inputs
                if (message := _store(org_id, own_source or given.source or EMAIL, given, now))]
    queues.send_all(queue_url, messages)
