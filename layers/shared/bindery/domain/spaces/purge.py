"""A deleted space is permanently removed 7 days after its deletion (API.md): once DynamoDB's TTL has
removed the space item, everything the space owned goes too (store.space_purge says what and where).

The purge is idempotent and restartable: it deletes page by page until nothing is left, so running it
again — a redelivered stream record, a purge cut short half way — finishes what is left and otherwise
costs one GetItem, two empty Queries (the space's items, its integration setups) and one empty
listing. The space's integration setups are items of the integrations' partitions: they go with their
`space_installation_deleted` events (bindery.domain.integrations.content_installs.content_gone).
"""

from __future__ import annotations

from dataclasses import dataclass

from bindery.domain.integrations.content_installs import content_gone
from bindery.store import space_purge


@dataclass(frozen=True)
class Purge:
    space_id: str
    items: int  # DynamoDB items deleted by this call
    objects: int  # S3 objects (or local blob files) deleted by this call
    space_still_stored: bool = False  # the space item exists: nothing was deleted


def purge_space(space_id: str) -> Purge:
    if space_purge.space_item_present(space_id):
        return Purge(space_id, 0, 0, space_still_stored=True)
    items = 0
    while deleted := space_purge.delete_items_page(space_id):
        items += deleted
    content_gone("space", [space_id])  # its integration setups, which live in the integrations' items
    # Objects after items: an item that names a missing object is never left behind for a reader.
    return Purge(space_id, items, space_purge.delete_objects(space_id))


def purge_removed(key: dict[str, str]) -> Purge | None:
    """Purge the space whose item was removed under `key`; None when the key is not a space item's."""
    space_id = space_purge.space_id_of(key)
    return None if space_id is None else purge_space(space_id)
