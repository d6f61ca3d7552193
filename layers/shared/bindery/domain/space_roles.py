"""Effective roles for requests about spaces that `content_access.space_access` does not cover: the role
where a space is created (the organization's top level, or a collection), and the roles on a whole page
of spaces. The rules are `content_access.effective_role`'s; this module only gathers what it needs."""

from __future__ import annotations

from bindery import keys
from bindery.domain.access import NO_ORG
from bindery.domain.content_access import effective_role, roles_on
from bindery.errors import NotFound
from bindery.store.batch_reads import items_by_key, ref
from bindery.store.collections import Collection
from bindery.store.content_nodes import Node
from bindery.store.members import Member
from bindery.store.spaces import Space


def role_at(member: Member, parent: Collection | None) -> str | None:
    """The member's role where a new space would go: in `parent` (its level, grants and those above it),
    or at the top level, where the organization role applies."""
    if parent is None:
        return effective_role(member, [], set())
    return roles_on(member, [parent])[parent.id]


def _team_links(org_id: str, user_id: str, team_ids: set[str]) -> list[keys.Key]:
    return [keys.team_member(org_id, team_id, user_id) for team_id in sorted(team_ids)]


def roles_on_spaces(org_id: str, user_id: str, spaces: list[Space]) -> tuple[Member, dict[str, str | None]]:
    """The caller's membership and role on each space, from ONE BatchGetItem for the membership, every
    collection above any of the spaces and the caller's memberships of the teams the spaces grant
    something to (a second one only for teams granted solely by those collections). Team memberships
    are read by key, never from an index that may lag. Not an active member: 404."""
    member_key = keys.member(org_id, user_id)
    own_teams = {team for space in spaces for team in space.team_ids_granted}
    collection_ids = list(dict.fromkeys(cid for space in spaces for cid in space.ancestors))
    found = items_by_key([member_key, *(keys.collection(cid) for cid in collection_ids),
                          *_team_links(org_id, user_id, own_teams)])
    member_item = found.get(ref(member_key))
    member = Member.from_item(member_item) if member_item else None
    if member is None or member.disabled:
        raise NotFound(NO_ORG)
    collections = {cid: Collection.from_item(found[ref(keys.collection(cid))])
                   for cid in collection_ids if ref(keys.collection(cid)) in found}
    further = {team for collection in collections.values() for team in collection.team_ids_granted}
    further -= own_teams
    if further and member.role != "admin":  # an organization admin is admin whatever the teams say
        found.update(items_by_key(_team_links(org_id, user_id, further)))
    teams = {team for team in own_teams | further
             if ref(keys.team_member(org_id, team, user_id)) in found}
    chains: dict[str, list[Node]] = {
        space.id: [space, *(collections[cid] for cid in space.ancestors if cid in collections)]
        for space in spaces
    }
    return member, {space_id: effective_role(member, chain, teams) for space_id, chain in chains.items()}
