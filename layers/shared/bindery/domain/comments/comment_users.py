"""The users a comment or a reply shows: its author, its reactors and, for a comment, its repliers and
who resolved it.

A neutral module: the domain reads them (one BatchGetItem for a page of posts, bindery.domain.people)
and wire shapes them (bindery.api.wire.comments), and wire imports no domain.
"""

from __future__ import annotations

from collections.abc import Iterable

from bindery.store.comments import Comment, Post, split_reaction_entry


def named_users(posts: Iterable[Post]) -> list[str]:
    """Every user the posts show, each once, in the order they first appear."""
    ids: list[str] = []
    for post in posts:
        ids.append(post.posted_by)
        ids += [split_reaction_entry(entry)[0] for entry in post.reactions]
        if isinstance(post, Comment):
            ids += [user for user, count in post.replier_counts.items() if count > 0]
            if post.resolved_by:
                ids.append(post.resolved_by)
    return list(dict.fromkeys(ids))
