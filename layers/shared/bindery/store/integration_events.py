"""Integration events and their delivery trace (keys in bindery.keys.integrations).

    {PK: INTEGRATION#{name}#EVENTS, SK: EVENT#{eventId}, type: "integration-event", id, integration,
     installationId, orgId, createdAt, payload (the official Event), delivery ("pending" | "success" |
     "failed"), attempts, logs [{message, timestamp, level}]}

An event is put in the same transaction as the change it reports; each delivery attempt appends its
log lines and sets `delivery` with one UpdateItem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery.keys import integrations as integration_keys
from bindery.platform.aws import dynamodb_table
from bindery.store import table
from bindery.store.table import Item

NEW = "attribute_not_exists(PK)"
MAX_LOGS = 50  # the trace keeps the last attempts' lines, never an unbounded item


@dataclass
class Event:
    id: str
    integration: str
    installation_id: str
    org_id: str
    created_at: str
    payload: dict[str, Any]
    delivery: str = "pending"
    attempts: int = 0
    logs: list[dict[str, str]] = field(default_factory=list)

    def to_item(self) -> Item:
        return {**integration_keys.event(self.integration, self.id), "type": "integration-event",
                "id": self.id, "integration": self.integration, "installationId": self.installation_id,
                "orgId": self.org_id,
                "createdAt": self.created_at, "payload": self.payload, "delivery": self.delivery,
                "attempts": self.attempts, "logs": self.logs}

    @classmethod
    def from_item(cls, item: Item) -> Event:
        return cls(id=item["id"], integration=item["integration"], installation_id=item["installationId"],
                   org_id=item["orgId"], created_at=item["createdAt"], payload=item["payload"],
                   delivery=item.get("delivery", "pending"), attempts=int(item.get("attempts", 0)),
                   logs=item.get("logs") or [])


def put_event_op(event: Event) -> table.Op:
    return table.put_op(event.to_item(), NEW, name="event")


def put_events(events: list[Event]) -> None:
    """Events recorded after their change committed (a space's new content, fanned out to its
    installations): 25 to a BatchWriteItem, unconditioned, so writing the same events again (their ids
    are derived from the change) leaves one item each."""
    with dynamodb_table().batch_writer() as batch:
        for event in events:
            batch.put_item(Item=event.to_item())


def get_event(name: str, event_id: str) -> Event | None:
    item = table.get(integration_keys.event(name, event_id))
    return Event.from_item(item) if item else None


def _events(name: str, limit: int = 100, start_key: dict[str, Any] | None = None) -> table.Query:
    return table.Query(integration_keys.events_partition(name), prefix=integration_keys.EVENT_PREFIX,
                       forward=False, limit=limit, start_key=start_key)


def events_page(name: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    """A page of the integration's events, newest first."""
    return _events(name, limit, start_key).run()


def events_count(name: str) -> int:
    return _events(name).count()


def record_attempt(event: Event, logs: list[dict[str, str]], delivery: str) -> None:
    """One delivery attempt: its log lines appended (the trace keeps the last MAX_LOGS), the outcome set."""
    kept = [*event.logs, *logs][-MAX_LOGS:]
    table.transact([table.update_op(
        integration_keys.event(event.integration, event.id),
        "SET logs = :logs, delivery = :delivery, attempts = attempts + :one",
        {":logs": kept, ":delivery": delivery, ":one": 1}, "attribute_exists(PK)", name="event")])
    event.logs, event.delivery, event.attempts = kept, delivery, event.attempts + 1


def delete_events(name: str) -> None:
    """Every event of an unpublished integration."""
    start: dict[str, Any] | None = None
    while True:
        page = _events(name, 1000, start).run()
        table.batch_delete([integration_keys.event(name, item["id"]) for item in page.items])
        if not page.last_key:
            return
        start = page.last_key
