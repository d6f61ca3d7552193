"""ORG/spaces: the organization's live spaces the caller can see, in creation order.

A page is one GSI1 Query of the organization's spaces, then one BatchGetItem for the caller's membership
and every collection above the page's spaces, so a page costs the same whoever asks. Spaces the caller
has no role on are dropped from the page after it is read: a page can hold fewer than `limit` items (even
none) and still have a next page. `count` is the organization's `spaceCount` (read in that BatchGetItem)
for an organization admin, who sees every live space; for anyone else it would reveal how many spaces
they cannot see, and counting what they can see would mean reading every space: no `count` then.
"""

from __future__ import annotations

from bindery.api.wire.spaces import space_to_wire
from bindery.auth import Caller
from bindery.domain.access.content import member_roles_and_org
from bindery.pagination import Listing, decode_cursor, encode_cursor
from bindery.store import spaces as space_store
from bindery.store.spaces import Space


def list_spaces(caller: Caller, org_id: str, *, limit: int, page: str | None) -> Listing:
    scope = f"spaces:{org_id}"
    result = space_store.org_spaces_page(org_id, limit, decode_cursor(scope, page))
    spaces = [Space.from_item(item) for item in result.items]
    # Membership is checked after the Query so that both reads stay one request each; nothing read is
    # returned to a caller who is not a member (404).
    member, roles, org = member_roles_and_org(org_id, caller.user_id, spaces)
    items = [space_to_wire(space, roles[space.id]) for space in spaces if roles[space.id] is not None]
    cursor = encode_cursor(scope, result.last_key) if result.last_key else None
    return Listing(items=items, next_cursor=cursor,
                   count=org.space_count if member.role == "admin" else None)
