"""The body of every SQS message Bindery sends: one model per queue, shared by the sender and the
worker, so that the two cannot disagree on a field name. Field names are the JSON's (camelCase)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Message(BaseModel):
    # A worker of an older deployment may receive a newer message: extra fields are ignored, missing
    # ones make the message malformed (the worker drops it with a log line).
    model_config = ConfigDict(extra="ignore", frozen=True)


class GitRunMessage(Message):
    """GitSyncQueue: perform one Git Sync run (bindery.domain.git_sync.runs). `url` may hold
    credentials, so it travels in the message rather than in the stored run, and is never logged."""

    spaceId: str  # noqa: N815
    runId: str  # noqa: N815
    url: str


class IndexMessage(Message):
    """SearchIndexQueue: build the search index of one revision (bindery.engines.search.indexing)."""

    spaceId: str  # noqa: N815
    revisionId: str  # noqa: N815


class OpenAPIProcessMessage(Message):
    """OpenAPIProcessingQueue: process the source of one spec for one job (bindery.domain.openapi.processing).
    A message whose job the spec no longer has (a newer PUT, a deleted spec) changes nothing."""

    organizationId: str  # noqa: N815
    slug: str
    specId: str  # noqa: N815
    job: str


class TranslationRunMessage(Message):
    """TranslationRunQueue: perform one run of a translation (bindery.domain.translations.runs). A message
    whose job the translation no longer has (run again since, deleted) changes nothing."""

    organizationId: str  # noqa: N815
    translationId: str  # noqa: N815
    job: str


class IntegrationEventMessage(Message):
    """IntegrationEventQueue: deliver one recorded integration event (bindery.domain.integrations.delivery).
    An event already delivered, or of an unpublished integration, changes nothing."""

    integration: str
    eventId: str  # noqa: N815


class ConversationMessage(Message):
    """ConversationsQueue: process one revision of an ingested conversation
    (bindery.domain.conversations.processing). A revision processed already, or replaced by a newer
    ingest, changes nothing."""

    organizationId: str  # noqa: N815
    conversationId: str  # noqa: N815
    rev: str
