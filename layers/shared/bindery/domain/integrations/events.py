"""Integration events: recorded with the change they report, queued for delivery, and read back with
their delivery trace (GET /integrations/{name}/events[/{eventId}], the owner's admins).

Recorded: `installation_setup` (install, configure), `installation_deleted`,
`space_installation_setup` / `_deleted`, `site_installation_setup` / `_deleted`, in the change's own
transaction, so such an event exists exactly when its change happened; and `space_content_updated`
(bindery.domain.integrations.content_events), right after its change. The queue message follows the
commit (no queue configured: the event is recorded, never delivered).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.integrations.records import load, owner_admin
from bindery.platform import clock, queues
from bindery.platform.config import settings
from bindery.platform.errors import NotFound
from bindery.platform.ids import new_id, plausible
from bindery.platform.messages import IntegrationEventMessage
from bindery.platform.pagination import Listing, next_page, open_page
from bindery.store import Op
from bindery.store import integration_events as event_store
from bindery.store.integration_events import Event

NO_EVENT = "No matching integration event"


@dataclass(frozen=True)
class Recorded:
    """Events to put with a change (`ops`), and to queue once it is committed (`queue()`)."""

    events: list[Event]

    @property
    def ops(self) -> list[Op]:
        return [event_store.put_event_op(event) for event in self.events]

    def queue(self) -> None:
        queue_url = settings().integration_events_queue_url
        if not queue_url:
            return  # recorded and shown; delivered once a queue is configured (the template sets one)
        queues.send_all(queue_url, [IntegrationEventMessage(integration=event.integration, eventId=event.id)
                                    for event in self.events])


def event(integration: str, installation_id: str, org_id: str, kind: str, *, event_id: str | None = None,
          fields: dict[str, Any] | None = None, **named: Any) -> Recorded:
    """One event of the official type `kind` (`installation_setup`…) about an installation; `event_id`
    when it is derived from its change (written after it, idempotently), a new id otherwise."""
    event_id = event_id or new_id()
    fields = {**(fields or {}), **named}
    payload = {"eventId": event_id, "type": kind, "installationId": installation_id,
               **{name: value for name, value in fields.items() if value is not None}}
    return Recorded([Event(id=event_id, integration=integration, installation_id=installation_id,
                           org_id=org_id, created_at=clock.now_iso(), payload=payload)])


def list_events(caller: Caller, name: str, *, limit: int, page: str | None) -> Listing[Event]:
    owner_admin(caller, load(name), "read its events")
    scope = f"integration-events:{name}"
    start = open_page(scope, page)
    found = event_store.events_page(name, limit, start.start)
    count = start.count if start.count is not None else event_store.events_count(name)
    items = [Event.from_item(item) for item in found.items]
    return Listing(items, next_page(scope, found.last_key, count), count)


def get_event(caller: Caller, name: str, event_id: str) -> Event:
    owner_admin(caller, load(name), "read its events")
    found = event_store.get_event(name, event_id) if plausible(event_id) else None
    if found is None:
        raise NotFound(NO_EVENT)
    return found
