"""The organization's translation glossary (keys in bindery.keys.translations; docs/translations.md).

    {PK: ORG#{orgId}, SK: GLOSSARY#{id}, type: "glossary-entry", id, orgId, translations {lang: term},
     createdAt, updatedAt}

A batch of operations is one transaction (all or nothing), with the organization's `glossaryEntryCount`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery import keys
from bindery.keys import translations as translation_keys
from bindery.store import table
from bindery.store.table import Item

MAX_OPERATIONS = 99  # a transaction holds 100 operations; one is the organization's count


@dataclass
class GlossaryEntry:
    id: str
    org_id: str
    created_at: str
    updated_at: str
    translations: dict[str, str] = field(default_factory=dict)

    def to_item(self) -> Item:
        return {**translation_keys.glossary_entry(self.org_id, self.id), "type": "glossary-entry",
                "id": self.id, "orgId": self.org_id, "translations": self.translations,
                "createdAt": self.created_at, "updatedAt": self.updated_at}

    @classmethod
    def from_item(cls, item: Item) -> GlossaryEntry:
        return cls(id=item["id"], org_id=item["orgId"], created_at=item["createdAt"],
                   updated_at=item["updatedAt"], translations=dict(item.get("translations") or {}))


def get_entry(org_id: str, entry_id: str) -> GlossaryEntry | None:
    item = table.get(translation_keys.glossary_entry(org_id, entry_id))
    return GlossaryEntry.from_item(item) if item else None


def get_entries(org_id: str, entry_ids: list[str]) -> dict[str, GlossaryEntry]:
    found: dict[str, GlossaryEntry] = {}
    ids = list(dict.fromkeys(entry_ids))
    for start in range(0, len(ids), 100):
        wanted = [translation_keys.glossary_entry(org_id, entry_id) for entry_id in ids[start:start + 100]]
        for item in table.batch_get(wanted):
            found[item["id"]] = GlossaryEntry.from_item(item)
    return found


def entries_page(org_id: str, limit: int, start_key: dict[str, Any] | None) -> table.QueryPage:
    return table.Query(keys.org_partition(org_id), prefix=translation_keys.GLOSSARY_PREFIX, limit=limit,
                       start_key=start_key).run()


def all_entries(org_id: str) -> list[GlossaryEntry]:
    """The whole glossary (a run reads it once): one Query per 1,000 entries."""
    found: list[GlossaryEntry] = []
    start: dict[str, Any] | None = None
    while True:
        page = entries_page(org_id, 1000, start)
        found += [GlossaryEntry.from_item(item) for item in page.items]
        if not page.last_key:
            return found
        start = page.last_key


def insert_op(entry: GlossaryEntry, name: str) -> table.Op:
    return table.put_op(entry.to_item(), "attribute_not_exists(PK)", name=name)


def update_op(entry: GlossaryEntry, name: str) -> table.Op:
    return table.update_op(translation_keys.glossary_entry(entry.org_id, entry.id),
                           "SET translations = :t, updatedAt = :now",
                           {":t": entry.translations, ":now": entry.updated_at}, "attribute_exists(PK)",
                           name=name)


def delete_op(org_id: str, entry_id: str, name: str) -> table.Op:
    return table.delete_op(translation_keys.glossary_entry(org_id, entry_id), "attribute_exists(PK)",
                           name=name)


def count_op(org_id: str, delta: int) -> table.Op:
    return table.update_op(keys.org(org_id), "ADD glossaryEntryCount :n", {":n": delta},
                           "attribute_exists(PK)", name="org")
