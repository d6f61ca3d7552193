"""Keys of what search and link checks derive from a revision (see docs/search.md).

Both live in the space's partition, one item per revision, and never change once written (they are a
pure function of the revision):

    SPACE#{spaceId} / SEARCHINDEX#{revisionId}    the revision's search index: `digest` and `size` of its
                                                  SQLite file (S3 `spaces/{spaceId}/search/{digest}`)
    SPACE#{spaceId} / LINKREPORT#{revisionId}     the revision's link report: `report`, the digest of its
                                                  JSON blob (store.blobs)
"""

from __future__ import annotations

from bindery.keys import Key


def search_index(space_id: str, revision_id: str) -> Key:
    return {"PK": f"SPACE#{space_id}", "SK": f"SEARCHINDEX#{revision_id}"}


def link_report(space_id: str, revision_id: str) -> Key:
    return {"PK": f"SPACE#{space_id}", "SK": f"LINKREPORT#{revision_id}"}
