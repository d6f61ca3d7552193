"""A deleted space is permanently removed 7 days after its deletion (API.md): once DynamoDB's TTL has
removed the space item, everything the space owned goes too (store.space_purge says what and where).

The purge is idempotent and restartable: it deletes page by page until nothing is left, so running it
again — a redelivered stream record, a purge cut short half way — finishes what is left and otherwise
costs one GetItem, one empty Query and one empty listing.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    # Objects after items: an item that names a missing object is never left behind for a reader.
    return Purge(space_id, items, space_purge.delete_objects(space_id))


def purge_removed(key: dict[str, str]) -> Purge | None:
    """Purge the space whose item was removed under `key`; None when the key is not a space item's."""
    space_id = space_purge.space_id_of(key)
    return None if space_id is None else purge_space(space_id)
