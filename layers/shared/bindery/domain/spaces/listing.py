"""ORG/spaces: the organization's live spaces the caller can see, in creation order.

A page is one GSI1 Query of the organization's spaces, then one BatchGetItem for the caller's membership
and every collection above the page's spaces, so a page costs the same whoever asks. Spaces the caller
has no role on are dropped from the page after it is read: a page can hold fewer than `limit` items (even
none) and still have a next page. `count` is the organization's `spaceCount` (read in that BatchGetItem)
for an organization admin, who sees every live space. Anyone else is told how many spaces *they* can
see (the organization's total would tell them how many they cannot): the first page counts them with a
pass over the rest of the organization's spaces (a Query of 1,000 and a BatchGetItem of roles per
1,000 spaces), and its cursor carries the count to every later page.
"""

from __future__ import annotations

from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import member_roles_and_org, roles_on
from bindery.domain.spaces.records import SpaceView
from bindery.platform.pagination import MAX_LIMIT, Listing, carried_count, next_page, open_page
from bindery.store import spaces as space_store
from bindery.store.spaces import Space


def list_spaces(caller: Caller, org_id: str, *, limit: int, page: str | None) -> Listing[SpaceView]:
    # The caller is in the scope: a non-admin's cursor carries a count that is theirs alone.
    scope = f"spaces:{org_id}:{caller.user_id}"
    start = open_page(scope, page)
    result = space_store.org_spaces_page(org_id, limit, start.start)
    spaces = [Space.from_item(item) for item in result.items]
    # Membership is checked after the Query so that both reads stay one request each; nothing read is
    # returned to a caller who is not a member (404).
    member, roles, org = member_roles_and_org(org_id, caller, spaces)
    items = [SpaceView(space, roles[space.id]) for space in spaces if roles[space.id] is not None]
    if member.role == "admin":
        return Listing(items, next_page(scope, result.last_key), org.space_count)

    def visible(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        more = space_store.org_spaces_page(org_id, MAX_LIMIT, start_key)
        seen = roles_on(member, [Space.from_item(item) for item in more.items])
        return sum(role is not None for role in seen.values()), more.last_key

    count = carried_count(start, (len(items), result.last_key), visible)
    return Listing(items, next_page(scope, result.last_key, count), count)
