"""The members who took part in a space's or change request's discussions (posted a comment or a reply
there that still exists), each once, by user id: one Query of the commenter items, then one BatchGetItem
of their memberships. Someone who has left the organization is not a member any more and is left out
(a page can therefore be short and still have a `next`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.comments.targets import TargetRef, open_target
from bindery.platform.pagination import MAX_LIMIT, Listing, carried_count, next_page, open_page
from bindery.store import comments as store
from bindery.store.members import Member, get_members


@dataclass(frozen=True)
class Commenter:
    member: Member
    hide_email: bool  # guests see users without their email, as everywhere else


def list_commenters(caller: Caller, ref: TargetRef, *, limit: int,
                    cursor: str | None) -> Listing[Commenter]:
    target = open_target(caller, ref)
    scope = f"commenters:{ref.space_id}:{target.token}"
    start = open_page(scope, cursor)

    def read(start_key: dict[str, Any] | None, size: int) -> tuple[list[Member], dict[str, Any] | None]:
        found = store.commenters_page(ref.space_id, target.token, size, start_key)
        user_ids = [str(item["userId"]) for item in found.items]
        members = get_members(target.space.org_id, user_ids) if user_ids else {}
        return [members[user_id] for user_id in user_ids if user_id in members], found.last_key

    members, last_key = read(start.start, limit)
    items = [Commenter(member, target.hides_emails) for member in members]

    # Who is still a member is known only once the memberships are read: the first page counts them with
    # a pass over the rest of the commenters, and its cursor carries the count.
    def still_members(start_key: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
        more, more_last = read(start_key, MAX_LIMIT)
        return len(more), more_last

    count = carried_count(start, (len(items), last_key), still_members)
    return Listing(items, next_page(scope, last_key, count), count)
