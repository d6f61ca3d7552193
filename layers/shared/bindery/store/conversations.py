"""Ingested conversations and the organization's conversation counters (keys in
bindery.keys.conversations; docs/conversations.md).

    {PK: CONVERSATION#{id}, SK: CONVERSATION, type: "conversation", id, orgId, source, externalId,
     subject?, createdAt, ingestedAt, processedAt?, metadata?, digest, rev, processedRev?,
     issues: [{id, cluster, week, title, summary}], GSI1 (organization) / GSI2 (source)}
    {PK: CONVERSATION#{id}, SK: PARTS, parts (zlib-compressed JSON) | partsObject (S3, when too large)}
    {PK: ORG#{orgId}#INSIGHTS, SK: STATS, conversations, issues, "source:{source}": count}

The id is derived from (organization, source, external id), so ingesting the same conversation again
names the same item: idempotence needs no lookup item. The parts are an item of their own, so that the
listings of issues read conversations without their messages; a conversation's detail is one Query.
`rev` changes with every ingest whose content differs (`digest`); the worker processes a revision once
(`processedRev`) and writes only while the conversation still has the revision it read.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from bindery.keys import conversations as conv_keys
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.objects import object_store
from bindery.store.table import Item

# Parts larger than this (compressed) go to S3: a DynamoDB item holds at most 400 KB.
INLINE_PARTS_BYTES = 300_000
SOURCE_COUNTER = "source:"


@dataclass
class Conversation:
    id: str
    org_id: str
    source: str
    external_id: str
    created_at: str
    ingested_at: str
    digest: str
    rev: str
    subject: str | None = None
    metadata: dict[str, Any] | None = None
    processed_at: str | None = None
    processed_rev: str | None = None
    issues: list[dict[str, str]] = field(default_factory=list)  # [{id, cluster, week, title, summary}]

    _FIELDS = ItemFields(
        ("id", "id"), ("org_id", "orgId"), ("source", "source"), ("external_id", "externalId"),
        ("created_at", "createdAt"), ("ingested_at", "ingestedAt"), ("digest", "digest"), ("rev", "rev"),
        ("subject", "subject"), ("metadata", "metadata"), ("processed_at", "processedAt"),
        ("processed_rev", "processedRev"), ("issues", "issues"),
    )

    @property
    def key(self) -> dict[str, str]:
        return conv_keys.conversation(self.id)

    def to_item(self) -> Item:
        return {**self.key, "type": "conversation",
                **conv_keys.conversation_gsi(self.org_id, self.source, self.created_at, self.id),
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> Conversation:
        return cls(**cls._FIELDS.values(item))


def _parts_item(conversation: Conversation, parts: list[dict[str, str]]) -> Item:
    item: Item = {**conv_keys.conversation_parts(conversation.id), "type": "conversation-parts"}
    packed = zlib.compress(json.dumps(parts, separators=(",", ":")).encode())
    if len(packed) <= INLINE_PARTS_BYTES:
        item["parts"] = packed
    else:
        name = conv_keys.parts_object(conversation.org_id, conversation.id, conversation.digest)
        object_store().put(name, packed)
        item["partsObject"] = name
    return item


def _parts_from(item: Item) -> list[dict[str, str]]:
    packed = item.get("parts")
    if packed is None and item.get("partsObject"):
        packed = object_store().get(item["partsObject"])
    parts: list[dict[str, str]] = json.loads(zlib.decompress(bytes(packed))) if packed is not None else []
    return parts


@dataclass(frozen=True)
class Counters:
    conversations: int = 0
    issues: int = 0
    sources: dict[str, int] = field(default_factory=dict)


# --- reads -----------------------------------------------------------------------------------------------
def get_conversation(conversation_id: str) -> Conversation | None:
    item = table.get(conv_keys.conversation(conversation_id))
    return Conversation.from_item(item) if item else None


def get_with_parts(conversation_id: str) -> tuple[Conversation, list[dict[str, str]]] | None:
    """The conversation and its parts: one (consistent) Query of its partition."""
    page = table.Query(conv_keys.conversation(conversation_id)["PK"], limit=10).run()
    found = {item["SK"]: item for item in page.items}
    if "CONVERSATION" not in found:
        return None
    return Conversation.from_item(found["CONVERSATION"]), _parts_from(found.get("PARTS") or {})


def conversation_key(conversation_id: str) -> dict[str, str]:
    return conv_keys.conversation(conversation_id)


def conversations_from(items: list[Item]) -> list[Conversation]:
    return [Conversation.from_item(item) for item in items if item.get("type") == "conversation"]


def conversations_page(org_id: str, source: str | None, limit: int,
                       start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of the organization's conversations (of one source), newest first."""
    if source is None:
        query = table.Query(conv_keys.conversations_partition(org_id), index="GSI1", forward=False,
                            limit=limit, start_key=start_key)
    else:
        query = table.Query(conv_keys.source_partition(org_id, source), index="GSI2", forward=False,
                            limit=limit, start_key=start_key)
    return query.run()


def counters_from(item: Item | None) -> Counters:
    if not item:
        return Counters()
    sources = {name[len(SOURCE_COUNTER):]: int(value) for name, value in item.items()
               if name.startswith(SOURCE_COUNTER)}
    return Counters(int(item.get("conversations", 0)), int(item.get("issues", 0)), sources)


def get_counters(org_id: str) -> Counters:
    return counters_from(table.get(conv_keys.stats(org_id)))


# --- writes ------------------------------------------------------------------------------------------------
def counters_op(org_id: str, *, conversations: int = 0, issues: int = 0,
                source: str | None = None) -> table.Op:
    """ADD to the organization's counters (`source:` counts conversations per source)."""
    adds = {"#c": ("conversations", conversations), "#i": ("issues", issues)}
    if source is not None:
        adds["#s"] = (SOURCE_COUNTER + source, conversations)
    moving = {alias: pair for alias, pair in adds.items() if pair[1]}
    expression = "ADD " + ", ".join(f"{alias} :{alias[1:]}" for alias in moving)
    return table.update_op(conv_keys.stats(org_id), expression,
                           {f":{alias[1:]}": delta for alias, (_, delta) in moving.items()},
                           names={alias: name for alias, (name, _) in moving.items()}, name="counters")


def create_ops(conversation: Conversation, parts: list[dict[str, str]]) -> list[table.Op]:
    """A conversation ingested for the first time, counted."""
    return [table.put_op(conversation.to_item(), "attribute_not_exists(PK)", name="conversation"),
            table.put_op(_parts_item(conversation, parts), name="parts"),
            counters_op(conversation.org_id, conversations=1, source=conversation.source)]


def replace_ops(conversation: Conversation, parts: list[dict[str, str]],
                seen: Conversation) -> list[table.Op]:
    """A conversation ingested again with other content: the item anew (its issues as read), if no other
    ingest moved it (`rev`) and no worker recorded a result (`processedRev`) since it was read, and its
    parts. Without the second condition a result landing in between would leave its issues out of the
    list that re-processing replaces."""
    condition, values = "#rev = :seen", {":seen": seen.rev}
    if seen.processed_rev is None:
        condition += " AND attribute_not_exists(processedRev)"
    else:
        condition += " AND processedRev = :processed"
        values[":processed"] = seen.processed_rev
    return [table.put_op(conversation.to_item(), condition, name="conversation",
                         ExpressionAttributeNames={"#rev": "rev"}, ExpressionAttributeValues=values),
            table.put_op(_parts_item(conversation, parts), name="parts")]


def processed_op(conversation: Conversation, issues: list[dict[str, str]], processed_at: str) -> table.Op:
    """The worker's result for the revision it read: the conversation's issues, and when."""
    return table.update_op(
        conversation.key, "SET issues = :issues, processedAt = :at, processedRev = :rev",
        {":issues": issues, ":at": processed_at, ":rev": conversation.rev},
        "#rev = :rev", {"#rev": "rev"}, name="conversation")
