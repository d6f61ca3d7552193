"""The part of a PUT that comments and replies share: a new body (its author or an admin) and the caller's
own reactions (anyone with the comment role), as one UpdateItem expression (store.comments.Change).

Reactions are entries `{userId}|{emoji}` of the item's `reactions` map, added with
`SET reactions.#e = if_not_exists(reactions.#e, :now)` and taken with `REMOVE reactions.#e`: concurrent
PUTs never overwrite each other (no read-modify-write), a user counts once per emoji however often they
react, and `count`/`users` on the wire are both derived from the same entries, so they always agree.
"""

from __future__ import annotations

from collections.abc import Callable

from bindery.domain.comments import bodies
from bindery.domain.comments.targets import Target
from bindery.platform.errors import BadRequest
from bindery.requests.comments import CommentBody
from bindery.store import comments as store
from bindery.store.comments import Change, Post

MAX_REACTIONS = store.MAX_REACTIONS


def prepared_body(target: Target, body: CommentBody | None) -> Callable[[], bodies.Body | None]:
    """The new body, prepared (mentions looked up) once however often a write is retried."""
    cache: list[bodies.Body | None] = []

    def get() -> bodies.Body | None:
        if not cache:
            cache.append(bodies.prepare(target.space.org_id, body) if body is not None else None)
        return cache[0]

    return get


def apply(target: Target, post: Post, change: Change, *, body: Callable[[], bodies.Body | None],
          has_body: bool, added: list[str], removed: list[str], at: str, what: str) -> None:
    """Add the body edit and the reactions to `change`, checking who may make them."""
    if has_body:
        target.require_change(post, f"edit this {what}")
        new = body()
        if new is not None:
            store.edit_body(change, new.markdown, new.mentions, at)
    if added or removed:
        target.require_comment(f"react to this {what}")
        entries = map(store.split_reaction_entry, post.reactions)
        mine = {emoji for user, emoji in entries if user == target.user_id}
        fresh = [emoji for emoji in dict.fromkeys(added) if emoji not in mine]
        if len(post.reactions) + len(fresh) > MAX_REACTIONS:
            raise BadRequest(f"addedReactions: a {what} holds at most {MAX_REACTIONS} reactions")
        # Every emoji asked for is written, whatever was read: the expression itself is idempotent.
        store.react(change, target.user_id, list(dict.fromkeys(added)), list(dict.fromkeys(removed)), at)
