"""The members who took part in a space's or change request's discussions (posted a comment or a reply
there that still exists), each once, by user id: one Query of the commenter items, then one BatchGetItem
of their memberships. Someone who has left the organization is not a member any more and is left out
(a page can therefore be short and still have a `next`)."""

from __future__ import annotations

from typing import Any

from bindery.api.wire.users import member_to_wire
from bindery.auth import Caller
from bindery.domain.comments.targets import TargetRef, open_target
from bindery.pagination import Listing, decode_cursor, encode_cursor
from bindery.store import comments as store
from bindery.store.members import get_members


def list_commenters(caller: Caller, ref: TargetRef, *, limit: int, cursor: str | None) -> dict[str, Any]:
    target = open_target(caller, ref)
    scope = f"commenters:{ref.space_id}:{target.token}"
    found = store.commenters_page(ref.space_id, target.token, limit, decode_cursor(scope, cursor))
    user_ids = [str(item["userId"]) for item in found.items]
    members = get_members(target.space.org_id, user_ids) if user_ids else {}
    items = []
    for user_id in user_ids:
        if (member := members.get(user_id)) is None:
            continue
        wire = member_to_wire(member)
        if target.hides_emails:
            wire["user"].pop("email", None)
        items.append(wire)
    return Listing(items=items,
                   next_cursor=encode_cursor(scope, found.last_key) if found.last_key else None).to_wire()
