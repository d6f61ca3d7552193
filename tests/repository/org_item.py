"""A bare organization item for repository tests that write content straight through the store."""

from __future__ import annotations

from bindery import keys
from bindery.store import table


def ensure_org(org_id: str) -> None:
    """Organizations count their spaces and collections (the writes require the item): an upsert of the
    item, keeping the counters it may already have."""
    table.transact([table.update_op(keys.org(org_id), "SET #t = :t", {":t": "organization"},
                                    names={"#t": "type"})])
