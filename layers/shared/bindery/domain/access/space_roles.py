"""The role where a space is created (the organization's top level, or a collection), for requests that
`content_access.space_access` does not cover. The rules and the reads are `content_access`'s (the roles on
a page of spaces or collections are `content_access.member_roles`)."""

from __future__ import annotations

from bindery.domain.access.content import effective_role, roles_on
from bindery.store.collections import Collection
from bindery.store.members import Member


def role_at(member: Member, parent: Collection | None) -> str | None:
    """The member's role where a new space would go: in `parent` (its level, grants and those above it),
    or at the top level, where the organization role applies."""
    if parent is None:
        return effective_role(member, [], set())
    return roles_on(member, [parent])[parent.id]
